package layering

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// osPackages touch files, processes or the network.
var osPackages = map[string]bool{
	"os": true, "os/exec": true, "os/signal": true, "syscall": true, "net": true,
	"io/fs": true, "io/ioutil": true, "path/filepath": true, "plugin": true, "unsafe": true,
}

const module = "github.com/wynot/wynot"

// rules says, for each package directory (relative to the module root),
// which imports it must not have.
func check(dir, imp string) string {
	pure := dir == "dd" || strings.HasPrefix(dir, "dd/")
	if dir == "bench" || strings.HasPrefix(dir, "bench/") || dir == "internal/fixtures" {
		return "" // measuring tools and test fixtures, not part of wynot
	}
	switch {
	case pure && osPackages[imp]:
		return "the algorithms must not touch the operating system"
	case pure && strings.HasPrefix(imp, module+"/") && !strings.HasPrefix(imp, module+"/dd"):
		return "dd depends on nothing else in wynot"
	case imp == "os/exec" && dir != "runner" && !strings.HasPrefix(dir, "runner/"):
		return "only the runner starts processes"
	}
	return ""
}

// TestLayering checks every non-test Go file of the module (testdata
// excluded) against the rules.
func TestLayering(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("module root not found:", err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		for _, is := range f.Imports {
			imp, _ := strconv.Unquote(is.Path.Value)
			if why := check(rel, imp); why != "" {
				t.Errorf("%s imports %s: %s", filepath.ToSlash(strings.TrimPrefix(path, root+"/")), imp, why)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Fatalf("only %d files checked; is the walk broken?", files)
	}
}

func TestRulesCatchViolations(t *testing.T) {
	for _, c := range []struct{ dir, imp string }{
		{"dd", "os"}, {"dd", module + "/runner"}, {"dd/ddtest", "os/exec"}, {"cmd/wynot", "os/exec"}, {".", "os/exec"},
	} {
		if check(c.dir, c.imp) == "" {
			t.Errorf("%s importing %s is not caught", c.dir, c.imp)
		}
	}
	for _, c := range []struct{ dir, imp string }{
		{"dd", "context"}, {"runner", "os/exec"}, {"cmd/wynot", "os"}, {"dd/ddtest", module + "/dd"},
	} {
		if why := check(c.dir, c.imp); why != "" {
			t.Errorf("%s importing %s rejected: %s", c.dir, c.imp, why)
		}
	}
}
