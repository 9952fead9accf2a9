package golang

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strings"

	"github.com/wynot/wynot/domain/decomp"
	"golang.org/x/mod/modfile"
)

// ModCheck predicts candidates for a module's go.mod among the files of
// a tree: one that does not parse, renames the module while Go files of
// the tree import its packages by its path, no longer requires a module
// that a Go file of the tree imports (and the original required), or
// drops or changes the replacement of a module still required (or, when
// the go command adds requirements itself, imported), breaks every build
// of the module, as a Go file with a new type error does. Its errors are
// TypeErrors whose Dir is the go.mod's path.
type ModCheck struct {
	name     string
	module   string
	local    string            // a file that imports a package of the module by its path ("" for none)
	imports  map[string]string // import path → a file that imports it
	replaces []*modfile.Replace
	imported map[string]string // a replaced module's path → a file that imports a package of it
	// AutoRequire says the go command adds missing requirements itself
	// (GOFLAGS=-mod=mod): a requirement dropped is not an error then.
	AutoRequire bool
}

// NewModCheck describes the original go.mod name (slash-separated, in
// the tree) with the tree's files as they are now.
func NewModCheck(name string, orig []byte, files map[string][]byte) (*ModCheck, error) {
	f, err := modfile.Parse(name, orig, nil)
	if err != nil {
		return nil, err
	}
	if f.Module == nil {
		return nil, fmt.Errorf("%s names no module", name)
	}
	m := &ModCheck{name: name, module: f.Module.Mod.Path, imports: map[string]string{}, imported: map[string]string{}}
	outside, local := imports(files, path.Dir(name), m.module)
	for imp, file := range outside {
		if requires(f, imp) {
			m.imports[imp] = file
		}
	}
	m.local = local
	for _, r := range f.Replace {
		by := ""
		for _, imp := range sortedKeys(outside) {
			if provides(r.Old.Path, imp) {
				by = outside[imp]
				break
			}
		}
		if by != "" {
			m.imported[r.Old.Path] = by
		}
		if requires(f, r.Old.Path) || by != "" {
			m.replaces = append(m.replaces, r)
		}
	}
	return m, nil
}

// Finish returns the candidate data and, when it breaks the module, a
// TypeError saying how.
func (m *ModCheck) Finish(data []byte) ([]byte, error) {
	bad := func(format string, args ...any) ([]byte, error) {
		return data, &TypeError{Dir: m.name, Msg: fmt.Sprintf(format, args...)}
	}
	f, err := modfile.Parse(m.name, data, nil)
	switch {
	case err != nil:
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return bad("go.mod does not parse: %s", msg)
	case f.Module == nil:
		return bad("go.mod names no module")
	case f.Module.Mod.Path != m.module && m.local != "":
		return bad("go.mod no longer names the module %s, whose packages %s imports", m.module, m.local)
	}
	for _, imp := range sortedKeys(m.imports) {
		if !m.AutoRequire && !requires(f, imp) {
			return bad("go.mod no longer requires the module of %s, which %s imports", imp, m.imports[imp])
		}
	}
	for _, r := range m.replaces {
		kept := slices.ContainsFunc(f.Replace, func(x *modfile.Replace) bool { return x.Old == r.Old && x.New == r.New })
		switch {
		case kept:
		case requires(f, r.Old.Path):
			return bad("go.mod no longer replaces %s as it did, which it requires", r.Old.Path)
		case m.AutoRequire && m.imported[r.Old.Path] != "":
			// The go command would require it again, from where it is
			// replaced: a replacement dropped or changed (a local path
			// cut short) no longer finds it.
			return bad("go.mod no longer replaces %s as it did, which %s imports", r.Old.Path, m.imported[r.Old.Path])
		}
	}
	return data, nil
}

// requires says whether f requires the module that provides the package
// imp.
func requires(f *modfile.File, imp string) bool {
	return slices.ContainsFunc(f.Require, func(r *modfile.Require) bool { return provides(r.Mod.Path, imp) })
}

// provides says whether the module mod may provide the package imp: its
// path is imp or a prefix of it.
func provides(mod, imp string) bool {
	return imp == mod || strings.HasPrefix(imp, mod+"/")
}

// imports lists what the Go files under dir (the tree's files by
// slash-separated path) import from outside both the standard library
// and the module, each with a file that imports it; and a file that
// imports a package of the module ("" for none).
func imports(files map[string][]byte, dir, module string) (out map[string]string, local string) {
	out = map[string]string{}
	fset := token.NewFileSet()
	for _, p := range sortedKeys(files) {
		if !strings.HasSuffix(p, ".go") || Hidden(p) || dir != "." && !strings.HasPrefix(p, dir+"/") {
			continue
		}
		f, err := parser.ParseFile(fset, p, files[p], parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, s := range f.Imports {
			imp := strings.Trim(s.Path.Value, "`\"")
			first, _, _ := strings.Cut(imp, "/")
			if provides(module, imp) {
				if local == "" {
					local = p
				}
				continue
			}
			if !strings.Contains(first, ".") {
				continue
			}
			if _, ok := out[imp]; !ok {
				out[imp] = p
			}
		}
	}
	return out, local
}

// SumCheck predicts candidates for a module's go.sum among the files of
// a tree: one with a line that is not "MODULE VERSION HASH", or without
// a line of the original for a module that go.mod requires and the Go
// files import (the go command refuses to build with a checksum
// missing), breaks every build of the module. Its errors are TypeErrors
// whose Dir is the go.sum's path.
type SumCheck struct {
	name   string
	needed []string // original lines the build needs
	// AutoRequire says the go command adds what is missing itself
	// (GOFLAGS=-mod=mod).
	AutoRequire bool
}

// NewSumCheck describes the original go.sum name with the tree's files
// as they are now, its go.mod among them.
func NewSumCheck(name string, orig []byte, files map[string][]byte) (*SumCheck, error) {
	modName := path.Join(path.Dir(name), "go.mod")
	data, ok := files[modName]
	if !ok {
		return nil, fmt.Errorf("no %s beside %s", modName, name)
	}
	f, err := modfile.Parse(modName, data, nil)
	if err != nil || f.Module == nil {
		return nil, fmt.Errorf("%s does not parse", modName)
	}
	outside, _ := imports(files, path.Dir(name), f.Module.Mod.Path)
	s := &SumCheck{name: name}
	for _, r := range f.Require {
		used := false
		for imp := range outside {
			used = used || provides(r.Mod.Path, imp)
		}
		if !used {
			continue
		}
		for _, line := range strings.Split(string(orig), "\n") {
			fs := strings.Fields(line)
			if len(fs) == 3 && fs[0] == r.Mod.Path && (fs[1] == r.Mod.Version || fs[1] == r.Mod.Version+"/go.mod") {
				s.needed = append(s.needed, strings.Join(fs, " "))
			}
		}
	}
	return s, nil
}

// Finish returns the candidate data and, when it breaks the module, a
// TypeError saying how.
func (s *SumCheck) Finish(data []byte) ([]byte, error) {
	have := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		fs := strings.Fields(line)
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 3 || !strings.HasPrefix(fs[1], "v") || !strings.Contains(fs[2], ":") {
			return data, &TypeError{Dir: s.name, Msg: fmt.Sprintf("go.sum line %d is malformed", i+1)}
		}
		have[strings.Join(fs, " ")] = true
	}
	if s.AutoRequire {
		return data, nil
	}
	for _, line := range s.needed {
		if !have[line] {
			mod, _, _ := strings.Cut(line, " ")
			return data, &TypeError{Dir: s.name, Msg: "go.sum no longer has a checksum of " + mod + ", which the build needs"}
		}
	}
	return data, nil
}

// VendorCheck predicts the candidates of the text passes over a module's
// vendor/modules.txt. Those passes leave go.mod as it is, and the go
// command refuses to build when vendor/modules.txt no longer agrees with
// it ("inconsistent vendoring"): so a candidate that changes, drops or
// adds a module line ("# MODULE VERSION") or a marker line ("## explicit"
// and its annotations, which may go), or has a package line that is not
// one of the original's, breaks every build of the module. What is left to try is dropping package
// lines; a module goes with its requirement, by Requirements. Its errors
// are TypeErrors whose Dir is the file's path.
type VendorCheck struct {
	name     string
	modules  []string        // the module and marker lines, in order
	packages map[string]bool // the package lines
}

// NewVendorCheck describes the original vendor/modules.txt name.
func NewVendorCheck(name string, orig []byte) *VendorCheck {
	v := &VendorCheck{name: name, packages: map[string]bool{}}
	v.modules = v.split(orig, func(line string) { v.packages[line] = true })
	return v
}

// split returns the module and marker lines of data and hands each
// package line to pkg.
func (v *VendorCheck) split(data []byte, pkg func(string)) []string {
	var modules []string
	for line := range strings.SplitSeq(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "##"):
			// A marker may lose its annotations ("; go 1.22"), which the
			// go command does without, but not "explicit".
			m := "##"
			if slices.Contains(strings.FieldsFunc(line[2:], func(r rune) bool { return r == ';' || r == ' ' || r == '\t' }), "explicit") {
				m += " explicit"
			}
			modules = append(modules, m)
		case strings.HasPrefix(line, "#"):
			modules = append(modules, line)
		case strings.TrimSpace(line) != "":
			pkg(line)
		}
	}
	return modules
}

// Finish returns the candidate data and, when it breaks the module, a
// TypeError saying how.
func (v *VendorCheck) Finish(data []byte) ([]byte, error) {
	var unknown string
	modules := v.split(data, func(line string) {
		if unknown == "" && !v.packages[line] {
			unknown = line
		}
	})
	switch {
	case !slices.Equal(modules, v.modules):
		return data, &TypeError{Dir: v.name, Msg: "vendor/modules.txt no longer lists the modules go.mod requires as it did (inconsistent vendoring)"}
	case unknown != "":
		return data, &TypeError{Dir: v.name, Msg: fmt.Sprintf("vendor/modules.txt lists a package that is not vendored: %q", unknown)}
	}
	return data, nil
}

// Requirements is the pass over a module's go.mod, go.sum and
// vendor/modules.txt bundled together (decomp.Bundle, in that order,
// each but go.mod optional) whose changes each remove one requirement
// from go.mod together with its checksums from go.sum and its block from
// vendor/modules.txt: removed alone, go.mod's requirement leaves the
// vendor directory inconsistent with it (the go command refuses to
// build), and the checksums to later passes. Finish, by file name,
// checks each file of a candidate (ModCheck, SumCheck).
type Requirements struct {
	Finish map[string]func([]byte) ([]byte, error)
}

// Name is the pass's name in logs.
func (Requirements) Name() string { return "go requirements" }

// Plan proposes the removal of each requirement of go.mod (none when
// go.mod does not parse).
func (r Requirements) Plan(data []byte) (decomp.Plan, error) {
	files, err := decomp.Unbundle(data)
	if err != nil {
		return nil, err
	}
	spans := decomp.BundleSpans(files)
	if len(files) == 0 || path.Base(files[0].Name) != "go.mod" {
		return nil, fmt.Errorf("a module's bundle begins with its go.mod")
	}
	rw := &decomp.Rewrite{Src: data, Finish: func(b []byte) ([]byte, error) { return r.finish(b) }}
	f, err := modfile.Parse(files[0].Name, files[0].Data, nil)
	if err != nil {
		// A go.mod the test does not need to parse (the reduction
		// took it apart): no requirements to remove.
		return rw, nil
	}
	for _, req := range f.Require {
		if req.Syntax == nil {
			continue
		}
		// A line of its own goes whole: its indentation, a comment
		// (// indirect), the newline.
		mod := files[0].Data
		from, to := req.Syntax.Start.Byte, req.Syntax.End.Byte
		if nl := bytes.IndexByte(mod[to:], '\n'); nl >= 0 {
			if rest := strings.TrimSpace(string(mod[to : to+nl])); rest == "" || strings.HasPrefix(rest, "//") {
				start := bytes.LastIndexByte(mod[:from], '\n') + 1
				if strings.TrimSpace(string(mod[start:from])) == "" {
					from, to = start, to+nl+1
				}
			}
		}
		ch := decomp.Change{Kind: "requirement → nothing", Edits: []decomp.Splice{{From: spans[0][0] + from, To: spans[0][0] + to}}}
		for i, file := range files[1:] {
			base := spans[i+1][0]
			switch path.Base(file.Name) {
			case "go.sum":
				ls, _ := decomp.Lines{}.Cut(file.Data)
				for k := range ls.Len() {
					fs := strings.Fields(string(ls.Piece(k)))
					if len(fs) == 3 && fs[0] == req.Mod.Path && (fs[1] == req.Mod.Version || fs[1] == req.Mod.Version+"/go.mod") {
						ch.Edits = append(ch.Edits, decomp.Splice{From: base + ls.Cuts[k], To: base + ls.Cuts[k+1]})
					}
				}
			case "modules.txt":
				in := false
				ls, _ := decomp.Lines{}.Cut(file.Data)
				for k := range ls.Len() {
					if line := string(ls.Piece(k)); strings.HasPrefix(line, "# ") {
						fs := strings.Fields(line)
						in = len(fs) >= 3 && fs[1] == req.Mod.Path && fs[2] == req.Mod.Version
					}
					if in {
						ch.Edits = append(ch.Edits, decomp.Splice{From: base + ls.Cuts[k], To: base + ls.Cuts[k+1]})
					}
				}
			}
		}
		rw.Changes = append(rw.Changes, ch)
	}
	return rw, nil
}

// finish checks each file of a candidate bundle with its Finish.
func (r Requirements) finish(b []byte) ([]byte, error) {
	files, err := decomp.Unbundle(b)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if fin := r.Finish[f.Name]; fin != nil {
			if _, err := fin(f.Data); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}
