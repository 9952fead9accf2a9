package instrument

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The C backend: a script for gdb's Python API does with breakpoints
// what the guarded statements do in a Go program, by source line: an
// element is a line with code of the program's own files (function
// entries and exits excepted), an instance one hit of its breakpoint,
// and a skipped instance jumps to the end of the line's code. The plan
// and the counts are the same as for Go programs.

//go:embed gdb.py.txt
var gdbScript []byte

// GDBScript is the script gdb runs (gdb -batch -x).
func GDBScript() []byte { return gdbScript }

// GDBEnv names the script's settings file (GDBConfig as JSON).
const GDBEnv = "WYNOT_TRACE_GDB"

// The state backend for C: a script for gdb's Python API that counts
// the steps of a program (hits of the breakpoints on its lines, as
// GDBScript lists them) and, at the moments of a StatePlan (its args
// and the file "stdin" beside it give the program's arguments and
// input), changes the state with set variable and captures it as a
// memory graph: locals of the frame, the file's globals, pointers
// followed where memory is readable, dynamic arrays sized from their
// heap block (malloc_usable_size), char pointers as strings.

//go:embed gdbchain.py.txt
var gdbChainScript []byte

// GDBChainScript is the script gdb runs for wynot chain --gdb.
func GDBChainScript() []byte { return gdbChainScript }

// GDBChainEnv names the chain script's settings file (GDBConfig as
// JSON, mode "run").
const GDBChainEnv = "WYNOT_CHAIN_GDB"

// GDBArgv runs gdb on a script, quietly, without the user's gdbinit.
func GDBArgv(script string) []string {
	return []string{"gdb", "-q", "-batch", "-nx", "-x", script}
}

// GDBConfig are the script's settings.
type GDBConfig struct {
	// Mode "list" writes the program's lines to ElementsFile; "run" runs
	// the program under the plan.
	Mode         string    `json:"mode"`
	Binary       string    `json:"binary"`
	Args         []string  `json:"args"`
	Stdin        string    `json:"stdin,omitempty"`
	ElementsFile string    `json:"elements_file,omitempty"`
	Elements     []GDBLine `json:"elements,omitempty"`
	// Serve makes the script a persistent test process
	// (runner.Command.Persistent): it runs the program once per request.
	Serve bool `json:"serve,omitempty"`
}

// GDBLine is one element of a C program: a source line ([file, line]
// in JSON).
type GDBLine struct {
	File string
	Line int
}

// MarshalJSON writes [file, line].
func (l GDBLine) MarshalJSON() ([]byte, error) { return json.Marshal([]any{l.File, l.Line}) }

// UnmarshalJSON reads [file, line].
func (l *GDBLine) UnmarshalJSON(b []byte) error {
	var v []json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil || len(v) != 2 {
		return fmt.Errorf("a line is [file, line]: %s", b)
	}
	if err := json.Unmarshal(v[0], &l.File); err != nil {
		return err
	}
	return json.Unmarshal(v[1], &l.Line)
}

// ReadGDBLines reads the list the script wrote in list mode.
func ReadGDBLines(data []byte) ([]GDBLine, error) {
	var ls []GDBLine
	return ls, json.Unmarshal(data, &ls)
}

// GDBProgram is the program of a C binary's lines, for showing: the
// statement of each line is its source text (files relative to dir
// where they are below it).
func GDBProgram(lines []GDBLine, dir string) *Program {
	p := &Program{Overlay: map[string][]byte{}}
	sources := map[string][]string{}
	for i, l := range lines {
		src, ok := sources[l.File]
		if !ok {
			data, _ := os.ReadFile(l.File)
			src = strings.Split(string(data), "\n")
			sources[l.File] = src
		}
		text := ""
		if l.Line-1 < len(src) {
			text = strings.Join(strings.Fields(src[l.Line-1]), " ")
		}
		name := l.File
		if rel, err := filepath.Rel(dir, l.File); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		p.Stmts = append(p.Stmts, Stmt{ID: i + 1, Kind: Statement, File: name, Line: l.Line, EndLine: l.Line, Text: text})
	}
	return p
}

// ErrNoGDB says that gdb could not be started.
var ErrNoGDB = errors.New("gdb is not on PATH (on Debian: apt-get install gdb)")

// ListGDBLines lists the lines with code of a C program's own source
// files, by one run of GDBScript in list mode in the directory work.
// exec runs a command (argv, with env added to the environment) and
// says whether it ended cleanly and, if not, how; it returns ErrNoGDB
// when gdb cannot be started. The error for a binary without debugging
// information for files of its own says how to build one.
func ListGDBLines(binary, work string, exec func(argv, env []string) (clean bool, how string, err error)) ([]GDBLine, error) {
	script := filepath.Join(work, "list.py")
	if err := os.WriteFile(script, gdbScript, 0o644); err != nil {
		return nil, err
	}
	cfg := GDBConfig{Mode: "list", Binary: binary, Args: []string{}, ElementsFile: filepath.Join(work, "lines.json")}
	js, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(work, "list.json")
	if err := os.WriteFile(cfgPath, js, 0o644); err != nil {
		return nil, err
	}
	clean, how, err := exec(GDBArgv(script), []string{GDBEnv + "=" + cfgPath})
	if err != nil {
		return nil, err
	}
	data, rerr := os.ReadFile(cfg.ElementsFile)
	if !clean || rerr != nil {
		return nil, fmt.Errorf("gdb could not list the lines of %s: %s", binary, how)
	}
	lines, err := ReadGDBLines(data)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s has no debugging information for source files of its own: build it with -g -O0 (gcc -g -O0 -static makes runs under gdb far cheaper)", binary)
	}
	return lines, nil
}
