package layering

import (
	"go/ast"
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

// within reports whether dir is pkg or below it.
func within(dir, pkg string) bool { return dir == pkg || below(dir, pkg) }

// below reports whether dir is below pkg.
func below(dir, pkg string) bool { return strings.HasPrefix(dir, pkg+"/") }

// check says why the package in dir (relative to the module root) must
// not import imp, or "" when it may.
func check(dir, imp string) string {
	switch {
	case within(dir, "bench"), dir == "internal/fixtures", dir == "internal/layering",
		dir == "internal/slurmtest", within(dir, "internal/reapitest"):
		return "" // measuring tools, test fixtures and test services, not part of wynot
	}
	own, ok := strings.CutPrefix(imp, module+"/")
	if !ok && imp == module {
		own, ok = ".", true
	}
	switch {
	case within(dir, "dd") && osPackages[imp]:
		return "the algorithms must not touch the operating system"
	case within(dir, "dd") && ok && !within(own, "dd"):
		return "dd depends on nothing else in wynot"
	case imp == "os/exec" && !within(dir, "runner"):
		return "only the runner starts processes"
	case within(dir, "domain") && ok && !within(own, "domain") && own != "dd" && !within(own, "internal/enum") && !within(own, "internal/rmtree"):
		return "a domain cuts circumstances into changes: it imports no session, runner or report"
	case within(dir, "keep") && ok && own != "domain/filetree":
		return "keep writes results and keeps the originals; it knows no session, runner or report, and of the domains only file trees"
	case dir == "report" && ok && (within(own, "domain") || within(own, "command")):
		return "the report knows no domain and no command: it is handed what it shows"
	case dir == "runner" && ok && (within(own, "domain") || within(own, "command") || own == "report"):
		return "the runner runs candidates; it knows no domain, command or report"
	case dir == "command" && ok && (within(own, "domain") || within(own, "command")):
		return "the session runs any command's job; it knows no domain and no command"
	case below(dir, "command") && dir != "command/all" && ok && below(own, "command") && !within(own, dir):
		return "a command does not import another command"
	case dir == "command/all" && ok && own != "command" && !below(own, "command"):
		return "command/all is the table of the commands; it imports nothing else"
	case dir == "cmd/wynot" && ok && own != "command" && !below(own, "command"):
		return "cmd/wynot is a table of the commands; flags are parsed by the commands"
	}
	return ""
}

// runnerTesting are the runner's test machinery, which the session owns:
// a command that used them would test candidates past the session's
// counters, log, events and confirmation.
var runnerTesting = map[string]bool{"NewTester": true, "Tester": true, "NewCache": true, "OpenCache": true, "Cache": true}

// checkUse says why the package in dir must not use the identifier
// pkg.name, or "" when it may.
func checkUse(dir, pkg, name string) string {
	if below(dir, "command") && pkg == module+"/runner" && runnerTesting[name] {
		return "a command tests candidates through the session (command.Session), not the runner"
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
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		name := filepath.ToSlash(strings.TrimPrefix(path, root+"/"))
		local := map[string]string{} // import name -> path
		for _, is := range f.Imports {
			imp, _ := strconv.Unquote(is.Path.Value)
			if why := check(rel, imp); why != "" {
				t.Errorf("%s imports %s: %s", name, imp, why)
			}
			n := imp[strings.LastIndex(imp, "/")+1:]
			if is.Name != nil {
				n = is.Name.Name
			}
			local[n] = imp
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && local[id.Name] != "" {
					if why := checkUse(rel, local[id.Name], sel.Sel.Name); why != "" {
						t.Errorf("%s uses %s.%s: %s", name, id.Name, sel.Sel.Name, why)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Fatalf("only %d files checked; is the walk broken?", files)
	}
}

// TestRulesCatchViolations shows that each rule fails on a violation.
func TestRulesCatchViolations(t *testing.T) {
	for _, c := range []struct{ dir, imp string }{
		{"dd", "os"}, {"dd", module + "/runner"}, {"dd/ddtest", "os/exec"}, {"cmd/wynot", "os/exec"}, {".", "os/exec"},
		{"domain/codediff", module + "/runner"}, {"domain/syntax/golang", module + "/command"},
		{"domain/decomp", module + "/report"}, {"domain/corpus", "os/exec"},
		{"report", module + "/domain/decomp"}, {"report", module + "/command"},
		{"runner", module + "/report"}, {"runner", module + "/domain/codediff"},
		{"command", module + "/domain/decomp"}, {"command", module + "/command/reduce"},
		{"command/reduce", module + "/command/changes"}, {"command/fuzz", "os/exec"},
		{"command/reduce", module + "/command/all"}, {"command/all", module + "/domain/decomp"},
		{"cmd/wynot", module + "/runner"}, {"cmd/wynot", module + "/dd"}, {"cmd/wynot", module + "/domain/codediff"},
		{"keep", module + "/runner"}, {"keep", module + "/command"}, {"keep", module + "/domain/syntax"},
	} {
		if check(c.dir, c.imp) == "" {
			t.Errorf("%s importing %s is not caught", c.dir, c.imp)
		}
	}
	for _, c := range []struct{ dir, imp string }{
		{"dd", "context"}, {"runner", "os/exec"}, {"cmd/wynot", "os"}, {"dd/ddtest", module + "/dd"},
		{"domain/syntax", module + "/domain/syntax/golang"}, {"domain/codediff", module + "/internal/enum"},
		{"command/reduce", module + "/command"}, {"command/reduce", module + "/domain/syntax"},
		{"command/changes", module + "/runner"}, {"cmd/wynot", module + "/command/fuzz"}, {"report", module + "/dd"},
		{"command/all", module + "/command/chain"}, {"cmd/wynot", module + "/command/all"},
		{"keep", module + "/domain/filetree"}, {"keep", "os"}, {"command", module + "/keep"}, {"command/reduce", module + "/keep"},
	} {
		if why := check(c.dir, c.imp); why != "" {
			t.Errorf("%s importing %s rejected: %s", c.dir, c.imp, why)
		}
	}
	if checkUse("command/isolate", module+"/runner", "NewTester") == "" {
		t.Error("a command making its own tester is not caught")
	}
	if why := checkUse("command/isolate", module+"/runner", "Candidate"); why != "" {
		t.Errorf("a command naming a candidate rejected: %s", why)
	}
	if why := checkUse("command", module+"/runner", "NewTester"); why != "" {
		t.Errorf("the session making the tester rejected: %s", why)
	}
}
