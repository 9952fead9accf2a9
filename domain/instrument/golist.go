package instrument

import (
	"bytes"
	"fmt"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wynot/wynot/domain/syntax/golang"
)

// listTemplate is what go list says of each package, one line each: the
// module's version is its replacement's when it has one (empty for a
// directory).
const listTemplate = `{{.ImportPath}}	{{.Name}}	{{.Dir}}	{{.Export}}	{{if .Module}}{{.Module.Main}}	{{.Module.Path}}	{{.Module.Dir}}	{{.Module.GoVersion}}{{else}}false			{{end}}	{{join .GoFiles ","}}	{{join .CgoFiles ","}}	{{.DepOnly}}	{{if .Module}}{{if .Module.Replace}}{{.Module.Replace.Version}}{{else}}{{.Module.Version}}{{end}}{{end}}	{{.Standard}}`

// ListArgv is the command that lists the package in dir (absolute) and
// its dependencies with their export data, for ReadList.
func ListArgv(dir string) []string {
	return []string{"go", "-C", dir, "list", "-deps", "-export", "-f", listTemplate, "."}
}

// BuildArgv is the command that builds the package in dir (absolute)
// with an overlay into out, with the go.mod file modfile instead of the
// module's own when it is not "".
func BuildArgv(dir, overlay, modfile, out string) []string {
	argv := []string{"go", "-C", dir, "build", "-overlay", overlay}
	if modfile != "" {
		argv = append(argv, "-modfile", modfile)
	}
	return append(argv, "-o", out, ".")
}

// Listing is a Go package and what instrumenting it needs: the packages
// that can be instrumented among its dependencies (those of the main
// modules, and those of other modules, which are Optional), read, and an
// importer for the others.
type Listing struct {
	// ImportPath and Name are the listed package's; InModule says that
	// it belongs to a main module.
	ImportPath, Name string
	InModule         bool
	Packages         []Package
	// Cgo are the packages outside the standard library that use cgo:
	// they run uninstrumented.
	Cgo     []string
	Options Options
}

// ReadList reads the output of ListArgv and the files of the packages
// outside the standard library.
func ReadList(out []byte) (*Listing, error) {
	type listed struct {
		path, name, dir, export string
		main                    bool
		modPath, modDir, goVer  string
		goFiles, cgoFiles       []string
		depOnly                 bool
		version                 string
		std                     bool
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
		if len(f) != 13 {
			return nil, fmt.Errorf("go list: unexpected line %q", line)
		}
		l := listed{path: f[0], name: f[1], dir: f[2], export: f[3], main: f[4] == "true", modPath: f[5], modDir: f[6], goVer: f[7],
			goFiles: split(f[8]), cgoFiles: split(f[9]), depOnly: f[10] == "true", version: f[11], std: f[12] == "true"}
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
	// A go.mod without a go directive is go 1.16 to the go command
	// (gopkg.in/yaml.v3's), and its packages are compiled so.
	goVer := func(v string) string {
		if v == "" {
			return "go1.16"
		}
		return "go" + v
	}
	var imp types.Importer = golang.NewExportImporter(exports)
	for _, l := range pkgs {
		if l.std || l.modPath == "" || len(l.goFiles) == 0 {
			continue
		}
		if len(l.cgoFiles) > 0 {
			ls.Cgo = append(ls.Cgo, l.path)
			continue
		}
		p := Package{ImportPath: l.path, GoVersion: goVer(l.goVer)}
		if !l.main {
			p.Module, p.Version, p.ModuleDir, p.Optional = l.modPath, l.version, l.modDir, true
		}
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
	ls.Options = Options{Importer: imp, Module: target.modPath, ModuleDir: target.modDir, GoVersion: goVer(target.goVer)}
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
	// Instrumented are the import paths of the packages rewritten, the
	// main module's first.
	Instrumented []string
}

// Build lists the Go main package in dir and rewrites, with rewrite
// (Instrument or Probes), every package of its main modules and of the
// other modules it requires that it can (not the standard library, not
// packages that use cgo), or, with patterns (go list patterns, as
// --pkg gives them), those the patterns match; and it builds the program
// into work/prog. A dependency in the module cache, which no overlay may
// replace, is built from a copy in work (hard links), through a go.mod
// of work's that replaces it; the user's files and the module cache are
// never written. A dependency that cannot be instrumented (it does not
// type-check from its source alone, or its instrumented form does not
// build) runs as it is, and Program.Skipped says so. what names the
// command in messages ("wynot trace"). An *InputError is the input's.
func Build(dir, work, what string, patterns []string, rewrite func([]Package, Options) (*Program, error), exec Exec) (*Built, error) {
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
	var skipped []Skipped
	if len(patterns) > 0 {
		argv := append([]string{"go", "-C", abs, "list", "-e", "-f", "{{.ImportPath}}"}, patterns...)
		out, stderr, clean, err := exec(argv)
		if err != nil || !clean {
			return nil, input("--pkg %s: %s", strings.Join(patterns, " "), strings.TrimSpace(string(stderr)))
		}
		match := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			match[p] = true
		}
		ls.Packages = slices.DeleteFunc(ls.Packages, func(p Package) bool { return !match[p.ImportPath] })
		if len(ls.Packages) == 0 {
			return nil, input("--pkg %s matches no package of the program that can be instrumented (not the standard library, not a package that uses cgo)", strings.Join(patterns, " "))
		}
	}
	env := map[string]string{}
	for _, k := range []string{"GOMODCACHE", "GOWORK"} {
		out, _, _, _ := exec([]string{"go", "-C", abs, "env", k})
		env[k] = strings.TrimSpace(string(out))
	}
	inCache := func(p Package) bool {
		return p.Optional && env["GOMODCACHE"] != "" && strings.HasPrefix(p.ModuleDir, env["GOMODCACHE"]+string(filepath.Separator))
	}
	if env["GOWORK"] != "" && env["GOWORK"] != "off" {
		// A workspace's build takes its replacements from go.work, which
		// -modfile cannot stand in for: the module cache's packages run
		// as they are.
		ls.Packages = slices.DeleteFunc(ls.Packages, func(p Package) bool {
			if inCache(p) {
				skipped = append(skipped, Skipped{p.ImportPath, "in the module cache, and a workspace's build cannot be pointed at a copy"})
				return true
			}
			return false
		})
	}
	b := &Built{Binary: filepath.Join(work, "prog"), Listing: ls}
	for attempt := 0; ; attempt++ {
		prog, err := rewrite(ls.Packages, ls.Options)
		if err != nil {
			return nil, input("instrumenting %s: %v", dir, err)
		}
		prog.Skipped = append(slices.Clone(skipped), prog.Skipped...)
		copies, modfile, err := copyModules(prog, ls, work, inCache)
		if err != nil {
			return nil, err
		}
		where := func(path string) string {
			for from, to := range copies {
				if strings.HasPrefix(path, from+string(filepath.Separator)) {
					return to + path[len(from):]
				}
			}
			return path
		}
		ovPath, err := prog.WriteOverlay(ls.Options.ModuleDir, work, where)
		if err != nil {
			return nil, err
		}
		_, stderr, clean, err = exec(BuildArgv(abs, ovPath, modfile, b.Binary))
		if err != nil {
			return nil, err
		}
		if clean {
			b.Program = prog
			b.Instrumented = instrumented(prog, ls)
			return b, nil
		}
		// The dependencies the compiler complains of ("# path" heads
		// its errors in a package) run as they are; if it names none of
		// them, the instrumentation of the main modules is at fault.
		var bad []string
		for _, p := range ls.Packages {
			if p.Optional && (attempt >= 2 || bytes.Contains(stderr, []byte("# "+p.ImportPath+"\n"))) {
				bad = append(bad, p.ImportPath)
			}
		}
		if len(bad) == 0 {
			return nil, fmt.Errorf("building the instrumented program failed; this is a bug in %s (please report it with the program):\n%s", what, strings.TrimRight(string(stderr), "\n"))
		}
		ls.Packages = slices.DeleteFunc(ls.Packages, func(p Package) bool {
			if slices.Contains(bad, p.ImportPath) {
				skipped = append(skipped, Skipped{p.ImportPath, "its instrumented form did not build: " + firstError(stderr)})
				return true
			}
			return false
		})
		if err := os.RemoveAll(filepath.Join(work, "src")); err != nil {
			return nil, err
		}
	}
}

// firstError is the first line of a command's error output that is not
// a package's heading ("# path").
func firstError(b []byte) string {
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(l, "# ") {
			return l
		}
	}
	return strings.TrimSpace(string(b))
}

// instrumented lists the packages of pkgs that prog rewrote a file of.
// The main module's come first, then those of the workspace's other
// modules, then the dependencies'.
func instrumented(prog *Program, ls *Listing) []string {
	var own, work, deps []string
	for _, p := range ls.Packages {
		if !slices.ContainsFunc(p.Files, func(f File) bool { _, ok := prog.Overlay[f.Path]; return ok }) {
			continue
		}
		switch {
		case p.Optional:
			deps = append(deps, p.ImportPath)
		case strings.HasPrefix(p.Files[0].Path, ls.Options.ModuleDir+string(filepath.Separator)):
			own = append(own, p.ImportPath)
		default:
			work = append(work, p.ImportPath)
		}
	}
	return slices.Concat(own, work, deps)
}

// copyModules copies, as hard links where it can, each module in the
// module cache that prog rewrites a file of into work/mods, and writes
// work/go.wynot.mod (and .sum): the main module's go.mod with each
// replaced by its copy. It returns the copies' directories by the
// originals', and the go.mod's path ("" when nothing was copied).
func copyModules(prog *Program, ls *Listing, work string, inCache func(Package) bool) (map[string]string, string, error) {
	copies := map[string]string{}
	var replaces []string
	for _, p := range ls.Packages {
		if !inCache(p) || copies[p.ModuleDir] != "" {
			continue
		}
		if !slices.ContainsFunc(p.Files, func(f File) bool { _, ok := prog.Overlay[f.Path]; return ok }) {
			continue
		}
		dst := filepath.Join(work, "mods", strconv.Itoa(len(copies)+1))
		if err := linkTree(p.ModuleDir, dst); err != nil {
			return nil, "", err
		}
		if _, err := os.Stat(filepath.Join(dst, "go.mod")); err != nil {
			// A module from before go.mod files: a replacement needs one.
			if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module "+p.Module+"\n"), 0o644); err != nil {
				return nil, "", err
			}
		}
		copies[p.ModuleDir] = dst
		replaces = append(replaces, fmt.Sprintf("replace %s => %s\n", p.Module, dst))
	}
	if len(copies) == 0 {
		return copies, "", nil
	}
	mod, err := os.ReadFile(filepath.Join(ls.Options.ModuleDir, "go.mod"))
	if err != nil {
		return nil, "", err
	}
	modfile := filepath.Join(work, "go.wynot.mod")
	if err := os.WriteFile(modfile, append(append(mod, '\n'), strings.Join(replaces, "")...), 0o644); err != nil {
		return nil, "", err
	}
	sum, err := os.ReadFile(filepath.Join(ls.Options.ModuleDir, "go.sum"))
	if err != nil && !os.IsNotExist(err) {
		return nil, "", err
	}
	return copies, modfile, os.WriteFile(filepath.Join(work, "go.wynot.sum"), sum, 0o644)
}

// linkTree makes dst a copy of the directory src: hard links to its
// files where the file system allows, copies elsewhere; directories are
// made writable (the module cache's are not), files are never written.
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if os.Link(path, to) == nil {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}

// Summary says which packages were instrumented: "instrumented 3
// packages: example.com/client and 2 of its dependencies
// (github.com/BurntSushi/toml, github.com/BurntSushi/toml/internal)".
func (b *Built) Summary() string {
	var own, deps []string
	for _, path := range b.Instrumented {
		if i := slices.IndexFunc(b.Listing.Packages, func(p Package) bool { return p.ImportPath == path }); i >= 0 && b.Listing.Packages[i].Optional {
			deps = append(deps, path)
		} else {
			own = append(own, path)
		}
	}
	s := fmt.Sprintf("instrumented %d package%s: %s", len(b.Instrumented), plural(len(b.Instrumented)), names(own, 4))
	if len(deps) > 0 {
		s += fmt.Sprintf(" and %d of %s dependencies (%s)", len(deps), map[bool]string{true: "its", false: "their"}[len(own) == 1], names(deps, 6))
	}
	return s
}

// Uninstrumented says what runs as it is besides the standard library:
// packages that use cgo, and those that could not be instrumented, with
// why; one line each kind.
func (b *Built) Uninstrumented() []string {
	var out []string
	if len(b.Listing.Cgo) > 0 {
		out = append(out, fmt.Sprintf("not instrumented, as they use cgo: %s", names(b.Listing.Cgo, 6)))
	}
	for _, s := range b.Program.Skipped {
		out = append(out, fmt.Sprintf("not instrumented: %s (%s)", s.ImportPath, s.Why))
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// names lists at most max names, then how many more.
func names(list []string, max int) string {
	if len(list) <= max {
		return strings.Join(list, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(list[:max], ", "), len(list)-max)
}
