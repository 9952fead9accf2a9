package instrument

import (
	_ "embed"
	"encoding/json"
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
