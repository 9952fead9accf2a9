// Command trace measures wynot trace: the instrumented program's speed
// against the native one on a tight loop (nothing skipped; recording),
// the build, the cost of a test next to a bare run, and flat ddmin
// against the hierarchy on a run of about 10⁵ statement instances. It
// prints markdown tables for bench/RESULTS.md.
//
//	go run ./bench/trace [-runs 5]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/importer"
	"go/token"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/wynot/wynot/domain/instrument"
)

const tight = `package main

import "fmt"

func main() {
	sum, cnt := 0, 0
	for i := 0; i < 200000000; i++ {
		sum += i * i
		if sum%7 == 0 {
			cnt++
		}
	}
	fmt.Println(sum, cnt)
}
`

// calls is a loop around a small function: a call and a loop iteration
// per step, the instrumented units.
const calls = `package main

import "fmt"

func step(x, i int) int {
	x ^= i
	x = x*31 + 7
	return x
}

func main() {
	x := 0
	for i := 0; i < 50000000; i++ {
		x = step(x, i)
	}
	fmt.Println(x)
}
`

var (
	runs = flag.Int("runs", 5, "runs per measurement (the best is taken)")
	real = flag.Bool("real", true, "also trace BurntSushi/toml's tomlv, from the module proxy")
)

const tomlInput = `title = "example"
[owner]
name = "Tom"
dob = 1979-05-27T07:32:00-08:00
[database]
ports = [ 8000, 8001, 8002 ]
enabled = true
`

// tomlModule copies a released version of BurntSushi/toml, from the
// module proxy, into a module of its own.
func tomlModule(tmp string) string {
	c := exec.Command("go", "mod", "download", "-json", "github.com/BurntSushi/toml@v1.4.0")
	c.Dir = tmp
	out, err := c.Output()
	if err != nil {
		log.Fatalf("go mod download: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil {
		log.Fatal(err)
	}
	dir := filepath.Join(tmp, "toml")
	must(cmd(tmp, "cp", "-r", m.Dir, dir))
	must(cmd(tmp, "chmod", "-R", "u+w", dir))
	return dir
}

func main() {
	flag.Parse()
	root, err := filepath.Abs(".")
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "wynot-bench-trace-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	wynot := filepath.Join(tmp, "wynot")
	must(cmd(root, "go", "build", "-o", wynot, "./cmd/wynot"))

	fmt.Println("### Instrumented run, nothing skipped, against the native run (best of", *runs, "runs)")
	fmt.Println()
	fmt.Println("| program | native | instrumented | ratio | recording | ratio | build (instrumented) |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, p := range []struct{ name, src string }{{"tight loop (2·10⁸ iterations, 3 statements)", tight}, {"call per iteration (5·10⁷)", calls}} {
		dir := module(tmp, p.src)
		native := filepath.Join(dir, "native")
		must(cmd(dir, "go", "build", "-o", native, "."))
		start := time.Now()
		inst := instrumented(dir)
		build := time.Since(start)
		tn := best(func() { must(cmd(dir, native)) })
		ti := best(func() { must(cmd(dir, inst)) })
		plan := filepath.Join(dir, "plan")
		if err := os.WriteFile(plan, instrument.Plan{Record: filepath.Join(dir, "counts")}.Encode(), 0o644); err != nil {
			log.Fatal(err)
		}
		tr := best(func() { must(cmdEnv(dir, []string{instrument.PlanEnv + "=" + plan}, inst)) })
		fmt.Printf("| %s | %.3fs | %.3fs | %.1f× | %.3fs | %.1f× | %.2fs |\n", p.name, tn.Seconds(), ti.Seconds(),
			ti.Seconds()/tn.Seconds(), tr.Seconds(), tr.Seconds()/tn.Seconds(), build.Seconds())
	}
	fmt.Println()

	backends(root, tmp, wynot)

	fmt.Println("### Flat ddmin against the hierarchy (functions and loops, calls and iterations, statements, statement instances), -j2")
	fmt.Println()
	fmt.Println("| program | mode | instances | kept | tests | seconds (after the build) | per test | bare run | build |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, p := range []struct{ name, dir string }{{"sample (AADEBUG 2000 §6), 0 5", "sample"}, {"scale (1500 records)", "scale"},
		{"BurntSushi/toml v1.4.0: tomlv -types on a 7-line file", "toml"}} {
		var dir, pkg string
		var args []string
		if p.dir == "toml" {
			if !*real {
				continue
			}
			dir, pkg = tomlModule(tmp), "./cmd/tomlv"
			file := filepath.Join(tmp, "t.toml")
			if err := os.WriteFile(file, []byte(tomlInput), 0o644); err != nil {
				log.Fatal(err)
			}
			args = []string{"-types", file}
		} else {
			path := filepath.Join(root, "cmd/wynot/testdata/trace", p.dir, "main.go")
			if p.dir == "sample" {
				path = filepath.Join(root, "examples/sample/main.go")
			}
			src, err := os.ReadFile(path)
			if err != nil {
				log.Fatal(err)
			}
			dir, pkg = module(tmp, string(src)), "."
			if p.dir == "sample" {
				args = []string{"0", "5"}
			}
		}
		native := filepath.Join(dir, "native")
		must(cmd(dir, "go", "build", "-o", native, pkg))
		bare := best(func() { must(cmd(dir, native, args...)) })
		for _, flat := range []bool{false, true} {
			a := []string{"trace", "-j2", "--json", "-q", "--hierarchy", "on"}
			mode := "hierarchy"
			if flat {
				a, mode = []string{"trace", "-j2", "--json", "-q", "--hierarchy", "off"}, "flat"
			}
			a = append(a, pkg, "--")
			c := exec.Command(wynot, append(a, args...)...)
			c.Dir = dir
			out, err := c.Output()
			if err != nil {
				log.Fatalf("wynot %v: %v", a, err)
			}
			var sum struct {
				Tests, Runs                   int
				ElementsBefore, ElementsAfter int `json:"-"`
				Seconds, BuildSeconds         float64
			}
			var raw map[string]any
			_ = json.Unmarshal(out, &raw)
			_ = json.Unmarshal(out, &sum)
			sum.ElementsBefore, sum.ElementsAfter = int(raw["elements_before"].(float64)), int(raw["elements_after"].(float64))
			sum.BuildSeconds = raw["build_seconds"].(float64)
			search := sum.Seconds // from the first run of the original: the build is before
			fmt.Printf("| %s | %s | %d | %d | %d | %.1fs | %.1fms | %.1fms | %.2fs |\n", p.name, mode, sum.ElementsBefore, sum.ElementsAfter,
				sum.Tests, sum.Seconds, 1000*search/float64(sum.Tests), 1000*bare.Seconds(), sum.BuildSeconds)
		}
	}
}

// backends compares the cost of a test under the Go backend and under
// gdb (static and dynamic builds) on the sample program.
func backends(root, tmp, wynot string) {
	fmt.Println("### Cost per test: Go backend against the GDB backend, sample program (0 5), -j2")
	fmt.Println()
	if _, err := exec.LookPath("gdb"); err != nil {
		fmt.Println("(gdb is not installed: skipped)")
		return
	}
	fmt.Println("| backend | instances | kept | tests | seconds | per test |")
	fmt.Println("|---|---|---|---|---|---|")
	src, err := os.ReadFile(filepath.Join(root, "examples/sample/main.go"))
	if err != nil {
		log.Fatal(err)
	}
	godir := module(tmp, string(src))
	cdir, err := os.MkdirTemp(tmp, "c")
	if err != nil {
		log.Fatal(err)
	}
	csrc := filepath.Join(root, "cmd/wynot/testdata/trace/sample.c")
	must(cmd(cdir, "gcc", "-g", "-O0", "-static", "-o", "static", csrc))
	must(cmd(cdir, "gcc", "-g", "-O0", "-o", "dynamic", csrc))
	for _, b := range []struct {
		name string
		dir  string
		args []string
	}{
		{"Go (instrumented)", godir, []string{"."}},
		{"gdb, static -g -O0", cdir, []string{"--gdb", "./static"}},
		{"gdb, dynamic -g -O0", cdir, []string{"--gdb", "./dynamic"}},
	} {
		c := exec.Command(wynot, append(append([]string{"trace", "-j2", "--json", "-q"}, b.args...), "--", "0", "5")...)
		c.Dir = b.dir
		out, err := c.Output()
		if err != nil {
			log.Fatalf("wynot trace %v: %v", b.args, err)
		}
		var raw map[string]any
		if err := json.Unmarshal(out, &raw); err != nil {
			log.Fatal(err)
		}
		tests, secs := raw["tests"].(float64), raw["seconds"].(float64)
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %.1fs | %.1fms |\n", b.name, raw["elements_before"].(float64), raw["elements_after"].(float64),
			tests, secs, 1000*secs/tests)
	}
	fmt.Println()
}

func module(tmp, src string) string {
	dir, err := os.MkdirTemp(tmp, "m")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.24\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		log.Fatal(err)
	}
	return dir
}

// instrumented builds the module's program instrumented.
func instrumented(dir string) string {
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil {
		log.Fatal(err)
	}
	p, err := instrument.Instrument([]instrument.Package{{ImportPath: "example.com/m", Files: []instrument.File{{Path: filepath.Join(dir, "main.go"), Src: src}}}},
		instrument.Options{Importer: importer.ForCompiler(token.NewFileSet(), "gc", nil), Module: "example.com/m", ModuleDir: dir})
	if err != nil {
		log.Fatal(err)
	}
	of, err := p.WriteOverlay(dir, filepath.Join(dir, "overlay"), nil)
	if err != nil {
		log.Fatal(err)
	}
	bin := filepath.Join(dir, "instrumented")
	must(cmd(dir, "go", "build", "-overlay", of, "-o", bin, "."))
	return bin
}

func best(f func()) time.Duration {
	var ds []time.Duration
	for range *runs {
		start := time.Now()
		f()
		ds = append(ds, time.Since(start))
	}
	return slices.Min(ds)
}

func cmd(dir, name string, args ...string) error { return cmdEnv(dir, nil, name, args...) }

func cmdEnv(dir string, env []string, name string, args ...string) error {
	c := exec.Command(name, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	return nil
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
