package instrument

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"github.com/wynot/wynot/domain/syntax/golang"
)

// listTemplate is what go list says of each package, one line each.
const listTemplate = `{{.ImportPath}}	{{.Name}}	{{.Dir}}	{{.Export}}	{{if .Module}}{{.Module.Main}}	{{.Module.Path}}	{{.Module.Dir}}	{{.Module.GoVersion}}{{else}}false			{{end}}	{{join .GoFiles ","}}	{{join .CgoFiles ","}}	{{.DepOnly}}`

// ListArgv is the command that lists the package in dir (absolute) and
// its dependencies with their export data, for ReadList.
func ListArgv(dir string) []string {
	return []string{"go", "-C", dir, "list", "-deps", "-export", "-f", listTemplate, "."}
}

// BuildArgv is the command that builds the package in dir (absolute)
// with an overlay into out.
func BuildArgv(dir, overlay, out string) []string {
	return []string{"go", "-C", dir, "build", "-overlay", overlay, "-o", out, "."}
}

// Listing is a Go package and what instrumenting it needs: the packages
// of its main module among its dependencies, read, and an importer for
// the others.
type Listing struct {
	// ImportPath and Name are the listed package's; InModule says that
	// it belongs to a main module (the packages of which are Packages).
	ImportPath, Name string
	InModule         bool
	Packages         []Package
	Options          Options
}

// ReadList reads the output of ListArgv and the main module's files.
func ReadList(out []byte) (*Listing, error) {
	type listed struct {
		path, name, dir, export string
		main                    bool
		modPath, modDir, goVer  string
		goFiles, cgoFiles       []string
		depOnly                 bool
	}
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ",")
	}
	var pkgs []listed
	exports := map[string]string{}
	var target *listed
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 11 {
			return nil, fmt.Errorf("go list: unexpected line %q", line)
		}
		l := listed{path: f[0], name: f[1], dir: f[2], export: f[3], main: f[4] == "true", modPath: f[5], modDir: f[6], goVer: f[7],
			goFiles: split(f[8]), cgoFiles: split(f[9]), depOnly: f[10] == "true"}
		exports[l.path] = l.export
		pkgs = append(pkgs, l)
		if !l.depOnly {
			target = &pkgs[len(pkgs)-1]
		}
	}
	if target == nil {
		return nil, fmt.Errorf("go list found no package")
	}
	ls := &Listing{ImportPath: target.path, Name: target.name, InModule: target.main}
	if !target.main {
		return ls, nil
	}
	var imp types.Importer = golang.NewExportImporter(exports)
	for _, l := range pkgs {
		if !l.main || len(l.cgoFiles) > 0 || len(l.goFiles) == 0 {
			continue
		}
		p := Package{ImportPath: l.path}
		for _, name := range l.goFiles {
			path := filepath.Join(l.dir, name)
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			p.Files = append(p.Files, File{Path: path, Src: src})
		}
		ls.Packages = append(ls.Packages, p)
	}
	goVer := ""
	if target.goVer != "" {
		goVer = "go" + target.goVer
	}
	ls.Options = Options{Importer: imp, Module: target.modPath, ModuleDir: target.modDir, GoVersion: goVer}
	return ls, nil
}

// InputError is an error of Build that is the user's input's (not a Go
// main package, does not build, not in a module).
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

// Exec runs a command and says what it wrote to standard output and
// error, and whether it ended cleanly; err is for a command that could
// not run.
type Exec func(argv []string) (stdout, stderr []byte, clean bool, err error)

// Built is a Go program rewritten and built: the binary, the listing
// and the rewritten program.
type Built struct {
	Binary  string
	Listing *Listing
	Program *Program
}

// Build lists the Go main package in dir, rewrites the packages of its
// main module with rewrite (Instrument or Probes), and builds it with
// the overlay into work/prog. what names the command in messages ("wynot
// trace"). An *InputError is the input's.
func Build(dir, work, what string, rewrite func([]Package, Options) (*Program, error), exec Exec) (*Built, error) {
	input := func(format string, args ...any) error {
		return &InputError{fmt.Sprintf(format, args...)}
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, input("%v", err)
	}
	if !st.IsDir() {
		return nil, input("%s is not a directory: give the directory of a Go main package (or --gdb BINARY for a C program)", dir)
	}
	abs, _ := filepath.Abs(dir)
	stdout, stderr, clean, err := exec(ListArgv(abs))
	if err != nil {
		return nil, input("go list: %v", err)
	}
	if !clean {
		return nil, input("%s does not build:\n%s", dir, strings.TrimRight(string(stderr), "\n"))
	}
	ls, err := ReadList(stdout)
	if err != nil {
		return nil, input("%s: %v", dir, err)
	}
	if ls.Name != "main" {
		return nil, input("%s is package %s, not a main package: %s runs a program (give the directory of its package main)", dir, ls.Name, what)
	}
	if !ls.InModule {
		return nil, input("%s is not in a module: %s instruments the packages of the main module (run go mod init)", dir, what)
	}
	prog, err := rewrite(ls.Packages, ls.Options)
	if err != nil {
		return nil, input("instrumenting %s: %v", dir, err)
	}
	ovPath, err := prog.WriteOverlay(ls.Options.ModuleDir, work)
	if err != nil {
		return nil, err
	}
	b := &Built{Binary: filepath.Join(work, "prog"), Listing: ls, Program: prog}
	_, stderr, clean, err = exec(BuildArgv(abs, ovPath, b.Binary))
	if err != nil {
		return nil, err
	}
	if !clean {
		return nil, fmt.Errorf("building the instrumented program failed; this is a bug in %s (please report it with the program):\n%s", what, strings.TrimRight(string(stderr), "\n"))
	}
	return b, nil
}
