package changes

import (
	"context"
	"fmt"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/domain/syntax/golang"
	"github.com/wynot/wynot/runner"
)

// exports is the export data of the packages the trees' Go code imports
// from outside them (the standard library's and the requirements'), for
// the type check of configurations (codediff.BuildCheck), so that a
// configuration's misuse of another module's API is a type error too, as
// it is in wynot reduce. It is read once, with go list -export in a
// scratch module of the trees' go.mod and go.sum and one file importing
// every such package, and only when the changes touch neither go.mod
// nor go.sum (every configuration then has the same requirements) and
// the trees hold one module, at their root. nil otherwise, or when go
// list fails: those imports then stay untyped, as before.
func (e *search) exports(ctx context.Context, set *codediff.Set, base map[string]*codediff.File) types.Importer {
	if e.NoPredict {
		return nil
	}
	for _, c := range set.Changes {
		for _, p := range []string{c.Path, c.From} {
			if b := path.Base(p); p != "" && (b == "go.mod" || b == "go.sum") {
				return nil
			}
		}
	}
	old := maps(e.ws.Base().Files, base)
	files := map[string][]byte{}
	mods := 0
	for p, f := range old {
		if f == nil || f.Link != "" {
			continue
		}
		if path.Base(p) == "go.mod" {
			mods++
		}
		if strings.HasSuffix(p, ".go") || p == "go.mod" {
			files[p] = f.Data
		}
	}
	for p, f := range set.New.Files {
		if f != nil && f.Link == "" && strings.HasSuffix(p, ".go") {
			files[p] = f.Data
		}
	}
	mod := old["go.mod"]
	if mods != 1 || mod == nil {
		return nil
	}
	imports := golang.ImportsOutside(files)
	if len(imports) == 0 {
		return nil
	}
	dir, err := runner.MkdirTemp(runner.WorkDirParent(0), "exports")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(dir)
	var src strings.Builder
	src.WriteString("package x\n\nimport (\n")
	for _, imp := range imports {
		fmt.Fprintf(&src, "\t_ %q\n", imp)
	}
	src.WriteString(")\n")
	write := func(name string, data []byte) bool {
		return os.WriteFile(filepath.Join(dir, name), data, 0o644) == nil
	}
	if !write("go.mod", mod.Data) || !write("x.go", []byte(src.String())) {
		return nil
	}
	if sum := old["go.sum"]; sum != nil && !write("go.sum", sum.Data) {
		return nil
	}
	// Offline, from the module cache the builds filled: a package not
	// there stays untyped.
	exec := func(argv []string) ([]byte, error) {
		c := runner.Command{Argv: argv, Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"), Timeout: 5 * time.Minute}
		return c.Output(ctx)
	}
	export := map[string]string{}
	if err := golang.ListExports(exec, dir, ".", export); err != nil {
		e.s.Logf("go list -export for the type checks failed (%v): imports from outside the tree stay untyped\n", err)
		return nil
	}
	if len(export) == 0 {
		return nil
	}
	e.s.Say("Go configurations are type-checked with the export data of %d packages from outside the tree (go list -export)", len(export))
	return golang.NewExportImporter(export)
}
