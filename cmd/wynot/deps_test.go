package main

import (
	"archive/zip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wynot/wynot/command/trace"
)

// strsLib is a library with a wrong-output bug, in a module whose go.mod
// has no go directive (go 1.16 to the go command, as gopkg.in/yaml.v3's:
// the standard library's reflect says any, which such a module cannot),
// and an init function (whose statements run before main's): the last
// number of a list counts only when it is below 10.
const strsLib = `package strs

import "reflect"

var sep rune

func init() {
	sep = ','
}

// Sum adds the numbers of a comma-separated list.
func Sum(list string) int {
	v := reflect.ValueOf(list).Interface()
	s := v.(string)
	total, n := 0, 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
		case c == sep:
			total += n
			n = 0
		}
	}
	if n < 10 {
		total += n
	}
	return total
}
`

// strsClient is a program that requires the library, as its users have
// it.
const strsClient = `package main

import (
	"fmt"
	"os"

	"example.com/strs"
)

func main() {
	fmt.Println(strs.Sum(os.Args[1]))
}
`

// moduleProxy writes a module proxy in the layout the go command reads
// from a file:// GOPROXY, serving module mod at version ver with files
// (go.mod among them), and returns its URL.
func moduleProxy(t *testing.T, mod, ver string, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, mod, "@v")
	write(t, filepath.Join(dir, "list"), []byte(ver+"\n"))
	write(t, filepath.Join(dir, ver+".info"), fmt.Appendf(nil, `{"Version":%q}`, ver))
	write(t, filepath.Join(dir, ver+".mod"), []byte(files["go.mod"]))
	f, err := os.Create(filepath.Join(dir, ver+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for name, src := range files {
		w, err := z.Create(mod + "@" + ver + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(src))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return "file://" + root
}

// TestTraceChainDependency: a defect in a library the program requires
// (from the module cache, a local replace, a workspace, vendor/) is seen by
// wynot trace and wynot chain: the library's packages are instrumented
// by default and named so, the slice holds the library's lines, and the
// chain's suggested location is in the library's function. The module
// cache and the user's files are never written; --pkg narrows.
func TestTraceChainDependency(t *testing.T) {
	e2e(t)
	t.Parallel()
	lib := map[string]string{"go.mod": "module example.com/strs\n", "strs.go": strsLib}
	proxy := moduleProxy(t, "example.com/strs", "v1.0.0", lib)
	cache := t.TempDir()
	t.Cleanup(func() {
		// The module cache's files are read-only: go clean removes them.
		c := exec.Command("go", "clean", "-modcache")
		c.Env = append(os.Environ(), "GOMODCACHE="+cache)
		c.Run()
	})
	env := []string{"GOPROXY=" + proxy, "GOMODCACHE=" + cache, "GOSUMDB=off", "GOFLAGS=-mod=mod", "GOWORK=off"}
	client := func(t *testing.T, gomod string) string {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
		write(t, filepath.Join(dir, "main.go"), []byte(strsClient))
		return dir
	}
	goCmd := func(t *testing.T, dir string, args ...string) {
		c := exec.Command("go", args...)
		c.Dir, c.Env = dir, append(os.Environ(), env...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// beside is the client in a directory beside the library's, its
	// go.mod ending with more, and a go.work of work over both if any.
	beside := func(t *testing.T, more, work string) string {
		root := t.TempDir()
		for name, src := range lib {
			write(t, filepath.Join(root, "strs", name), []byte(src))
		}
		dir := filepath.Join(root, "client")
		write(t, filepath.Join(dir, "go.mod"), []byte("module example.com/client\n\ngo 1.22\n\nrequire example.com/strs v1.0.0\n\n"+more))
		write(t, filepath.Join(dir, "main.go"), []byte(strsClient))
		if work != "" {
			write(t, filepath.Join(root, "go.work"), []byte(work))
		}
		return dir
	}
	setups := []struct {
		name, file string // file: how the slice names the library's file
		make       func(t *testing.T) string
	}{
		{"module cache", "example.com/strs@v1.0.0/strs.go", func(t *testing.T) string {
			dir := client(t, "module example.com/client\n\ngo 1.16\n\nrequire example.com/strs v1.0.0\n")
			goCmd(t, dir, "mod", "download", "example.com/strs")
			goCmd(t, dir, "build", "-o", filepath.Join(t.TempDir(), "prog"), ".") // writes go.sum, as users' builds do
			return dir
		}},
		{"replace", "../strs/strs.go", func(t *testing.T) string {
			return beside(t, "replace example.com/strs => ../strs\n", "")
		}},
		{"workspace", "../strs/strs.go", func(t *testing.T) string {
			return beside(t, "", "go 1.22\n\nuse (\n\t./client\n\t./strs\n)\n")
		}},
		{"vendor", "vendor/example.com/strs/strs.go", func(t *testing.T) string {
			dir := client(t, "module example.com/client\n\ngo 1.22\n\nrequire example.com/strs v1.0.0\n")
			goCmd(t, dir, "mod", "tidy")
			goCmd(t, dir, "mod", "vendor")
			return dir
		}},
	}
	for _, setup := range setups {
		t.Run(setup.name, func(t *testing.T) {
			dir := setup.make(t)
			env := env
			said := "instrumented 2 packages: example.com/client and 1 of its dependencies (example.com/strs)"
			switch setup.name {
			case "vendor":
				env = append(slices.Clone(env), "GOFLAGS=-mod=vendor")
			case "workspace":
				env = append(slices.Clone(env), "GOWORK="+filepath.Join(filepath.Dir(dir), "go.work"), "GOFLAGS=")
				said = "instrumented 2 packages: example.com/client, example.com/strs"
			}
			before, cached := treeDigest(t, dir), treeDigest(t, cache)

			res := wynotRun(t, dir, env, "trace", "--json", "-j2", ".", "--", "1,2,30")
			if res.code != 0 {
				t.Fatalf("trace: exit %d:\n%s", res.code, res.stderr)
			}
			s := res.summary(t)
			if want := []string{"example.com/client", "example.com/strs"}; !slices.Equal(s.Instrumented, want) {
				t.Errorf("trace instrumented %q, want %q", s.Instrumented, want)
			}
			if !strings.Contains(res.stderr, said) {
				t.Errorf("trace does not say what it instrumented:\n%s", res.stderr)
			}
			inLib := 0
			for _, l := range s.Slice {
				if l.File == setup.file {
					inLib++
				}
			}
			if inLib == 0 {
				t.Errorf("no line of %s in the slice: %+v", setup.file, s.Slice)
			}

			res = wynotRun(t, dir, env, "chain", "--json", "-j2", "--pass", "1,2,3", "--fail", "1,2,30", ".")
			if res.code != 0 {
				t.Fatalf("chain: exit %d:\n%s", res.code, res.stderr)
			}
			c := res.summary(t)
			if want := []string{"example.com/client", "example.com/strs"}; !slices.Equal(c.Probed, want) {
				t.Errorf("chain probed %q, want %q", c.Probed, want)
			}
			// The chain begins in main.main, not in the library's init.
			if len(c.Chain) == 0 || c.Chain[0].Func != "main.main" {
				t.Errorf("the chain does not begin in main.main:\n%s", res.stderr)
			}
			suggested := ""
			for _, tr := range c.Transitions {
				if tr.Suggested {
					suggested = tr.Where + " in " + tr.Func
				}
			}
			if !strings.Contains(suggested, setup.file+":") || !strings.HasSuffix(suggested, " in strs.Sum") {
				t.Errorf("chain suggests %q, not a line of strs.Sum in %s:\n%s", suggested, setup.file, res.stderr)
			}

			// --pkg narrows to the main module: the library runs as it is.
			res = wynotRun(t, dir, env, "trace", "--json", "-j2", "--pkg", ".", ".", "--", "1,2,30")
			if res.code != 0 {
				t.Fatalf("trace --pkg .: exit %d:\n%s", res.code, res.stderr)
			}
			s = res.summary(t)
			if !slices.Equal(s.Instrumented, []string{"example.com/client"}) || slices.ContainsFunc(s.Slice, func(l trace.SliceLine) bool { return l.File == setup.file }) {
				t.Errorf("--pkg .: instrumented %q, slice %+v", s.Instrumented, s.Slice)
			}

			if treeDigest(t, dir) != before {
				t.Errorf("the program's directory changed")
			}
			if treeDigest(t, cache) != cached {
				t.Errorf("the module cache changed")
			}
		})
	}
}
