// Command chain measures wynot chain: what a capture and a transplant
// cost next to a bare run of the program (Go backend, and C under gdb),
// and how many tests a state and a whole chain take. It prints markdown
// tables for bench/RESULTS.md.
//
//	go run ./bench/chain [-runs 20] [-gojq DIR]
//
// -gojq names a copy of github.com/itchyny/gojq v0.12.12 (go mod
// download, then copy the module directory and make it writable): the
// chain of its "abc" * 0 bug (null instead of "") is measured too.
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
	"time"

	chaincmd "github.com/wynot/wynot/command/chain"
	"github.com/wynot/wynot/domain/instrument"
	"github.com/wynot/wynot/domain/memgraph"
	"github.com/wynot/wynot/report"
)

var (
	runs = flag.Int("runs", 20, "runs per measurement (the median is shown)")
	gojq = flag.String("gojq", "", "a writable copy of gojq v0.12.12's module, for the real-program row")
)

func main() {
	flag.Parse()
	log.SetFlags(0)
	root, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "bench-chain-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	wynot := filepath.Join(tmp, "wynot")
	must(run(root, "go", "build", "-o", wynot, "./cmd/wynot"))

	fmt.Println("### Cost of a state capture and a transplant (median of", *runs, "runs)")
	fmt.Println()
	fmt.Println("| program | bare run | instrumented, no plan | capture | transplant | capture / bare |")
	fmt.Println("|---|---|---|---|---|---|")
	goCosts(tmp, filepath.Join(root, "examples/grades/main.go"))
	cCosts(tmp, filepath.Join(root, "cmd/wynot/testdata/chain/sample.c"))
	fmt.Println()

	fmt.Println("### Chains: tests per state and time per test (-j2)")
	fmt.Println()
	fmt.Println("| program | mode | states | transitions | captures | tests | tests per state | time | per test |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	grades := filepath.Join(root, "examples/grades")
	chain(wynot, grades, "grades (Go)", "cts", "--pass", "alice=50 bob=70 carol=90", "--fail", "alice=90 bob=50 carol=60", ".")
	chain(wynot, grades, "grades (Go)", "--at ×3", "--pass", "alice=50 bob=70 carol=90", "--fail", "alice=90 bob=50 carol=60",
		"--at", "main.go:74", "--at", "main.go:49", "--at", "main.go:64", ".")
	if dir := cSample(tmp, filepath.Join(root, "cmd/wynot/testdata/chain/sample.c")); dir != "" {
		chain(wynot, dir, "sample.c (gdb)", "cts", "--gdb", "--fail-on", "Output: 0 ", "--pass", "9 8 7", "--fail", "11 14", "./sample")
		chain(wynot, dir, "sample.c (gdb)", "--at ×2", "--gdb", "--fail-on", "Output: 0 ", "--pass", "9 8 7", "--fail", "11 14",
			"--at", "sample.c:37", "--at", "sample.c:38", "./sample")
	}
	if *gojq != "" {
		chain(wynot, *gojq, "gojq v0.12.12 (Go)", "cts", "--pass", `-n '"abc" * 1'`, "--fail", `-n '"abc" * 0'`, "./cmd/gojq")
	}
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func run(dir string, argv ...string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %v\n%s", argv, err, out)
	}
	return nil
}

// median times f, runs times.
func median(f func()) time.Duration {
	var ds []time.Duration
	for range *runs {
		start := time.Now()
		f()
		ds = append(ds, time.Since(start))
	}
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			if ds[j] < ds[i] {
				ds[i], ds[j] = ds[j], ds[i]
			}
		}
	}
	return ds[len(ds)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// exe runs a program with an environment, ignoring its status.
func exe(env []string, argv ...string) []byte {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	out, _ := cmd.Output()
	return out
}

func writePlan(dir, name string, p instrument.StatePlan) string {
	path := filepath.Join(dir, name)
	must(os.WriteFile(path, p.Encode(), 0o644))
	return path
}

func goCosts(tmp, src string) {
	dir := filepath.Join(tmp, "grades")
	must(os.MkdirAll(dir, 0o755))
	data, err := os.ReadFile(src)
	must(err)
	main := filepath.Join(dir, "main.go")
	must(os.WriteFile(main, data, 0o644))
	must(os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/grades\n\ngo 1.24\n"), 0o644))
	bare := filepath.Join(tmp, "grades-bare")
	must(run(dir, "go", "build", "-o", bare, "."))
	prog, err := instrument.Probes([]instrument.Package{{ImportPath: "example.com/grades", Files: []instrument.File{{Path: main, Src: data}}}},
		instrument.Options{Importer: importer.ForCompiler(token.NewFileSet(), "gc", nil), Module: "example.com/grades", ModuleDir: dir, GoVersion: "go1.24"})
	must(err)
	ov, err := prog.WriteOverlay(dir, filepath.Join(tmp, "ov"), nil)
	must(err)
	inst := filepath.Join(tmp, "grades-inst")
	must(run(dir, "go", "build", "-overlay", ov, "-o", inst, "."))
	pass, fail := []string{"alice=50", "bob=70", "carol=90"}, []string{"alice=90", "bob=50", "carol=60"}
	// The state in median after sort.Ints (main.go:49).
	probe := 0
	for _, s := range prog.Stmts {
		if s.Line == 49 {
			probe = s.ID
		}
	}
	at := instrument.Moment{Probe: probe, Stack: "main.median < main.main:74", Occurrence: 1}
	capture := func(args []string, tag string) *memgraph.Graph {
		m := at
		m.Graph = filepath.Join(tmp, tag+".graph")
		plan := writePlan(tmp, tag+".plan", instrument.StatePlan{At: []instrument.Moment{m}})
		exe([]string{instrument.StatePlanEnv + "=" + plan}, append([]string{inst}, args...)...)
		js, err := os.ReadFile(m.Graph)
		must(err)
		g, err := memgraph.Read(js)
		must(err)
		return g
	}
	gp, gf := capture(pass, "p"), capture(fail, "f")
	m := memgraph.Match(gp, gf)
	ds := m.Deltas()
	all := make([]int, len(ds))
	for i := range all {
		all[i] = i
	}
	apply := at
	apply.Ops = memgraph.Encode(m.Plan(ds, all))
	applyPlan := writePlan(tmp, "apply.plan", instrument.StatePlan{At: []instrument.Moment{apply}})
	capPlan := filepath.Join(tmp, "p.plan")
	tb := median(func() { exe(nil, append([]string{bare}, pass...)...) })
	tn := median(func() { exe(nil, append([]string{inst}, pass...)...) })
	tc := median(func() { exe([]string{instrument.StatePlanEnv + "=" + capPlan}, append([]string{inst}, pass...)...) })
	ta := median(func() { exe([]string{instrument.StatePlanEnv + "=" + applyPlan}, append([]string{inst}, pass...)...) })
	fmt.Printf("| grades (Go, %d vertices) | %s | %s | %s | %s (%d deltas) | %.2f× |\n", gp.Size(), ms(tb), ms(tn), ms(tc), ms(ta), len(ds), float64(tc)/float64(tb))
}

// cSample builds sample.c statically (or not), or returns "" without
// gcc and gdb.
func cSample(tmp, src string) string {
	for _, tool := range []string{"gcc", "gdb"} {
		if _, err := exec.LookPath(tool); err != nil {
			return ""
		}
	}
	dir := filepath.Join(tmp, "csample")
	must(os.MkdirAll(dir, 0o755))
	data, err := os.ReadFile(src)
	must(err)
	must(os.WriteFile(filepath.Join(dir, "sample.c"), data, 0o644))
	if run(dir, "gcc", "-g", "-O0", "-static", "-o", "sample", "sample.c") != nil {
		must(run(dir, "gcc", "-g", "-O0", "-o", "sample", "sample.c"))
	}
	return dir
}

func cCosts(tmp, src string) {
	dir := cSample(tmp, src)
	if dir == "" {
		return
	}
	bin := filepath.Join(dir, "sample")
	lines, err := instrument.ListGDBLines(bin, dir, func(argv, env []string) (bool, string, error) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return err == nil, string(out), nil
	})
	must(err)
	script := filepath.Join(dir, "chain.py")
	must(os.WriteFile(script, instrument.GDBChainScript(), 0o644))
	cfg, _ := json.Marshal(instrument.GDBConfig{Mode: "run", Binary: bin, Args: []string{}, Elements: lines})
	cfgPath := filepath.Join(dir, "gdb.json")
	must(os.WriteFile(cfgPath, cfg, 0o644))
	probe := 0
	for i, l := range lines {
		if l.Line == 38 {
			probe = i + 1
		}
	}
	gdb := instrument.GDBArgv(script)
	env := func(plan string) []string {
		return []string{instrument.GDBChainEnv + "=" + cfgPath, instrument.StatePlanEnv + "=" + plan}
	}
	noPlan := writePlan(dir, "none.plan", instrument.StatePlan{Args: []string{"9", "8", "7"}})
	m := instrument.Moment{Probe: probe, Stack: "main", Occurrence: 1, Graph: filepath.Join(dir, "g.json")}
	capPlan := writePlan(dir, "cap.plan", instrument.StatePlan{At: []instrument.Moment{m}, Args: []string{"9", "8", "7"}})
	m.Graph = ""
	m.Ops = memgraph.Encode([]memgraph.Op{{Do: "set", Path: []string{"a", "@", "[2]"}, Value: &memgraph.Value{Kind: memgraph.Atom, Atom: "0"}}})
	applyPlan := writePlan(dir, "apply.plan", instrument.StatePlan{At: []instrument.Moment{m}, Args: []string{"9", "8", "7"}})
	tb := median(func() { exe(nil, bin, "9", "8", "7") })
	tn := median(func() { exe(env(noPlan), gdb...) })
	tc := median(func() { exe(env(capPlan), gdb...) })
	ta := median(func() { exe(env(applyPlan), gdb...) })
	if out := exe(env(applyPlan), gdb...); !bytes.HasPrefix(out, []byte("Output: 0 ")) {
		log.Fatalf("the transplant under gdb did not work: %q", out)
	}
	js, err := os.ReadFile(filepath.Join(dir, "g.json"))
	must(err)
	g, err := memgraph.Read(js)
	must(err)
	fmt.Printf("| sample.c (gdb, static, %d vertices) | %s | %s | %s | %s (1 delta) | %.0f× |\n", g.Size(), ms(tb), ms(tn), ms(tc), ms(ta), float64(tc)/float64(tb))
}

func chain(wynot, dir, name, mode string, args ...string) {
	cmd := exec.Command(wynot, append([]string{"chain", "--json", "-j2", "-q"}, args...)...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var s struct {
		report.Summary
		chaincmd.Detail
	}
	if jerr := json.Unmarshal(out.Bytes(), &s); jerr != nil {
		log.Fatalf("%s %s: %v (%v)", name, mode, jerr, err)
	}
	fmt.Printf("| %s | %s | %d | %d | %d | %d | %.1f | %.1f s | %.1f ms |\n", name, mode, len(s.Chain), len(s.Transitions), s.Captures, s.Tests,
		float64(s.Tests)/float64(max(1, len(s.Chain))), took.Seconds(), 1000*took.Seconds()/float64(max(1, s.Tests)))
}
