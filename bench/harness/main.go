// Harness measures wynot against the peer reducers C-Reduce, C-Vise and
// delta on the cases of bench/: each tool reduces each case's input with
// the same C-Reduce style test script, which counts its invocations, and
// the harness records tests, wall time and final size in bench/RESULTS.md.
// It also measures wynot's overhead per test against starting the test
// process directly.
//
//	go run ./bench/harness                      # everything
//	go run ./bench/harness -tools wynot,cvise -cases gcc -jobs 2
//	go run ./bench/harness -overhead            # only the overhead table
//	go run ./bench/harness -only changes        # only wynot changes, spliced into RESULTS.md
//	go run ./bench/harness -only syntax         # source code: syntax trees against text and peers
//	go run ./bench/harness -only regressions -baseline 085d027   # real regressions, against an earlier wynot and git bisect
//	go run ./bench/harness -only regressions -gitonly -baseline main -out /tmp/git.md   # only --git against git bisect, before and after
//	go run ./bench/harness -only typed -wynot /tmp/wynot -jobs 2   # commands as people type them: right, refused or wrong
//	go run ./bench/harness -only realbugs -jobs 2   # wynot trace and chain on real bugs in libraries (bench/realbugs)
//	go run ./bench/harness -only scale -baseline /tmp/wynot-old -scaledir /dev/shm   # trees of 1,000 to 100,000 files, against an earlier wynot
//	go run ./bench/harness -only peers          # wynot against C-Reduce, C-Vise, shrinkray, picire; peers' runs cached in bench/peers/results.json
//	go run ./bench/harness -only peers -peers-rerun -tools picire -cases yaml-v3   # run a peer again
//
// Peers are looked up on $PATH (Debian: apt-get install creduce cvise delta)
// and skipped with a note when missing.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type benchCase struct {
	name  string
	file  string // the input's file name
	input func(root string) ([]byte, error)
	// check is the body of the test script: it runs the program on the
	// candidate "$f" and exits 0 iff the failure occurs.
	check string
	about string
}

func fuzz(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(32 + rng.IntN(95))
		if rng.IntN(96) == 0 {
			b[i] = '\n'
		}
	}
	return b
}

func fileInput(rel string) func(string) ([]byte, error) {
	return func(root string) ([]byte, error) { return os.ReadFile(filepath.Join(root, rel)) }
}

func cases() []benchCase {
	return []benchCase{
		{
			name: "mystery", file: "input.txt",
			input: func(string) ([]byte, error) { return []byte(`V"/+!aF-(V4EOz*+s/Q,7)2@0_`), nil },
			check: `"$BIN/mystery" "$f" >/dev/null 2>err; [ $? = 2 ] && grep -q 'panic: Invalid input' err`,
			about: "The Debugging Book's mystery(): fails on a ( before a later ).",
		},
		{
			name: "mozilla", file: "page.html",
			input: fileInput("examples/page.html"),
			check: `"$BIN/printer" "$f" >/dev/null 2>err; [ $? = 2 ] && grep -q 'panic: assignment to entry in nil map' err`,
			about: "TSE 2002 §4.2: a page printer crashes on a <SELECT> tag in a 900-line HTML page.",
		},
		{
			name: "flex", file: "t14",
			input: func(string) ([]byte, error) { return fuzz(14, 10000), nil },
			check: `"$BIN/flex" -n 100 "$f" >/dev/null 2>err; [ $? = 2 ] && grep -q 'index out of range \[100\]' err`,
			about: "TSE 2002 §4.3: 10⁴ fuzz characters; a scanner overruns its buffer on more than 100 characters without a newline.",
		},
		{
			name: "crtplot", file: "t16",
			input: func(string) ([]byte, error) { return fuzz(16, 100000), nil },
			check: `"$BIN/crtplot" "$f" >/dev/null 2>&1; [ $? = 139 ]`,
			about: "TSE 2002 §4.3: 10⁵ fuzz characters; a plotter (C) dies of SIGSEGV on the command f.",
		},
		{
			name: "gcc", file: "bug.c",
			input: fileInput("bench/inputs/bug.c"),
			check: `"$BIN/cc" "$f" >/dev/null 2>err; [ $? = 4 ] && grep -q 'internal compiler error: Segmentation fault in strength_reduce' err`,
			about: "TSE 2002 §4.1: a compiler for a C subset crashes on one loop of a 369-line program.",
		},
	}
}

// script is the test script of a case: C-Reduce's convention (exit 0
// when the failure occurs), run in a directory holding the candidate
// under the case's file name; delta passes the candidate's name as $1.
func script(c benchCase, bin string) string {
	return fmt.Sprintf(`#!/bin/sh
[ -z "$BENCH_COUNTER" ] || echo >> "$BENCH_COUNTER"
BIN=%q
f=${1:-%s}
%s
`, bin, c.file, c.check)
}

type tool struct {
	name    string
	version string
	par     bool // can run tests in parallel
	// args returns the command line reducing file with test in dir.
	args func(test, file string, jobs int) []string
	// result is the reduced file after the run.
	result func(dir, file string) string
}

func tools(wynot string) []tool {
	always := func(string) []string { return []string{"--not-c"} }
	return []tool{
		wynotTool("wynot", wynot),
		cReduceTool("creduce", always),
		cReduceTool("cvise", always),
		{name: "delta",
			args: func(test, file string, j int) []string {
				return []string{"singledelta", "-quiet", "-test=" + test, "-suffix=" + filepath.Ext(file), "-cp_minimal=delta.min", file}
			}, result: func(dir, file string) string { return filepath.Join(dir, "delta.min") }},
	}
}

// inPlace is where a reducer that reduces the file it is given leaves
// its result.
func inPlace(dir, file string) string { return filepath.Join(dir, file) }

// wynotTool is wynot reduce with flags, as the sections run it, named
// name.
func wynotTool(name, wynot string, flags ...string) tool {
	return tool{name: name, par: true, version: "this tree",
		args: func(test, file string, j int) []string {
			return append(append([]string{wynot, "reduce", "-q"}, flags...), "-j", strconv.Itoa(j), "--test", test, file)
		}, result: inPlace}
}

// cReduceTool is C-Reduce or C-Vise (name: their command, which takes
// the same flags), with the mode flags mode gives for a file.
func cReduceTool(name string, mode func(file string) []string) tool {
	return tool{name: name, par: true,
		args: func(test, file string, j int) []string {
			return append(append([]string{name}, mode(file)...), "--n", strconv.Itoa(j), test, file)
		}, result: inPlace}
}

// notC is C-Reduce's and C-Vise's mode for a file: their C mode on .c
// files, --not-c otherwise.
func notC(file string) []string {
	if strings.HasSuffix(file, ".c") {
		return nil
	}
	return []string{"--not-c"}
}

type row struct {
	Case, Tool string
	Jobs       int
	InputBytes int
	Tests      int
	Seconds    float64
	FinalBytes int
	// FinalTokens is the result's size in tokens (syntax section only).
	FinalTokens int
	Status      string
}

func main() {
	toolsFlag := flag.String("tools", "wynot,creduce,cvise,delta", "tools to run")
	casesFlag := flag.String("cases", "", "cases to run (default all)")
	jobsFlag := flag.String("jobs", "1,2", "parallel test settings (typed section: wynot -j, the last of them)")
	limit := flag.Duration("timeout", 10*time.Minute, "time limit per reduction (typed section: per case, default 3m)")
	wynotFlag := flag.String("wynot", "", "the wynot binary to measure (default: build ./cmd/wynot)")
	typedLog := flag.String("typedlog", "", "typed and realbugs sections: keep wynot's standard output and error of each case in this directory")
	out := flag.String("out", "bench/RESULTS.md", "markdown file to write")
	overheadOnly := flag.Bool("overhead", false, "only measure the overhead per test")
	only := flag.String("only", "", "run only these sections (reductions, isolation, changes, regressions, fuzz, overhead, executors, syntax, typed, scale, realbugs, peers) and replace them in the existing file")
	baseline := flag.String("baseline", "", "a git revision of wynot to measure beside this one (regressions and scale sections; scale also takes a built binary)")
	configsFlag := flag.String("configs", "", "regressions section: the wynot configurations to run (files, dd, ddplus, ddmin; default all)")
	gitOnly := flag.Bool("gitonly", false, "regressions section: only wynot changes --git against git bisect run (and -baseline beside it)")
	sizes := flag.String("sizes", "1000,10000,100000", "scale section: the numbers of files of the trees")
	scaleDir := flag.String("scaledir", "", "scale section: where the trees go (default: the temporary directory)")
	peersCache := flag.String("peers-cache", "bench/peers/results.json", "peers section: the cache of the peers' runs")
	peersRerun := flag.Bool("peers-rerun", false, "peers section: run the peers again even when the cache has their runs")
	peersCap := flag.Duration("peers-cap", 5*time.Minute, "peers section: wall time cap per reduction")
	perses := flag.String("perses", "../shared/bench/perses-go", "the Perses Go benchmark folder, for the syntax section (skipped when missing)")
	flag.Parse()

	root, err := os.Getwd()
	check(err)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		fatalf("run from the repository's root")
	}
	work, err := os.MkdirTemp("", "wynot-bench-")
	check(err)
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "bin")
	check(os.Mkdir(bin, 0o755))
	// The typed section needs wynot only; the others, the cases'
	// programs too.
	build(root, bin, *wynotFlag, *only != "typed" && *only != "scale" && *only != "realbugs")
	limitSet, toolsSet := false, false
	flag.Visit(func(f *flag.Flag) {
		limitSet = limitSet || f.Name == "timeout"
		toolsSet = toolsSet || f.Name == "tools"
	})
	typedLimit := 3 * time.Minute
	if limitSet {
		typedLimit = *limit
	}
	jobList := strings.Split(*jobsFlag, ",")
	typedJobs, err := strconv.Atoi(jobList[len(jobList)-1])
	check(err)

	if !filepath.IsAbs(*perses) {
		*perses = filepath.Join(root, *perses)
	}
	path := *out
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	stamp := fmt.Sprintf("on %s (%d CPUs, %s), %s", hostname(), runtime.NumCPU(), runtime.Version(), time.Now().UTC().Format("2006-01-02"))
	if *overheadOnly {
		*only = "overhead"
	}
	if *only != "" {
		want := strings.Split(*only, ",")
		var part strings.Builder
		for _, sec := range want {
			switch sec {
			case "reductions":
				part.WriteString(reductions(root, work, bin, *toolsFlag, *casesFlag, *jobsFlag, *limit))
			case "isolation":
				part.WriteString(isolations(root, work, bin, *casesFlag))
			case "changes":
				part.WriteString(changesSection(root, work, bin))
			case "regressions":
				part.WriteString(regressionsSection(root, work, bin, *baseline, *casesFlag, *configsFlag, *gitOnly, *limit))
			case "fuzz":
				part.WriteString(fuzzSection(work, bin))
			case "overhead":
				part.WriteString(overhead(work, bin))
			case "executors":
				part.WriteString(executors(work, bin))
			case "syntax":
				part.WriteString(syntaxSection(root, work, bin, *toolsFlag, *casesFlag, *perses, *limit))
			case "peers":
				cache := *peersCache
				if !filepath.IsAbs(cache) {
					cache = filepath.Join(root, cache)
				}
				part.WriteString(peersSection(root, work, bin, *toolsFlag, *casesFlag, *perses, cache, *peersRerun, toolsSet, *peersCap))
			case "scale":
				scaleLimit := 5 * time.Minute
				if limitSet {
					scaleLimit = *limit
				}
				part.WriteString(scaleSection(root, work, bin, *baseline, *sizes, *scaleDir, scaleLimit))
			case "realbugs":
				part.WriteString(realBugsSection(root, bin, *casesFlag, typedJobs, *limit, *typedLog))
			case "typed":
				part.WriteString(typedSection(work, filepath.Join(bin, "wynot"), *casesFlag, *typedLog, typedJobs, typedLimit))
			default:
				fatalf("unknown section %q", sec)
			}
		}
		old, err := os.ReadFile(path)
		if err != nil {
			old = []byte("# Benchmarks\n\n")
		}
		md := splice(string(old), strings.Replace(part.String(), "\n\n", fmt.Sprintf("\n\n(Measured by `go run ./bench/harness -only %s` %s.)\n\n", *only, stamp), 1))
		check(os.WriteFile(path, []byte(md), 0o644))
		fmt.Println("updated", *out)
		return
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# Benchmarks\n\nMeasured by `go run ./bench/harness` %s.\n\n", stamp)
	md.WriteString(reductions(root, work, bin, *toolsFlag, *casesFlag, *jobsFlag, *limit))
	md.WriteString(isolations(root, work, bin, *casesFlag))
	md.WriteString(changesSection(root, work, bin))
	md.WriteString(regressionsSection(root, work, bin, *baseline, "", "", false, *limit))
	md.WriteString(fuzzSection(work, bin))
	md.WriteString(syntaxSection(root, work, bin, *toolsFlag, *casesFlag, *perses, *limit))
	md.WriteString(typedSection(work, filepath.Join(bin, "wynot"), "", *typedLog, typedJobs, typedLimit))
	md.WriteString(overhead(work, bin))
	check(os.WriteFile(path, []byte(md.String()), 0o644))
	fmt.Println("wrote", *out)
}

func reductions(root, work, bin, toolsFlag, casesFlag, jobsFlag string, limit time.Duration) string {
	var jobs []int
	for _, j := range strings.Split(jobsFlag, ",") {
		n, err := strconv.Atoi(j)
		check(err)
		jobs = append(jobs, n)
	}
	var rows []row
	var notes []string
	ts := tools(filepath.Join(bin, "wynot"))
	for i := range ts {
		t := &ts[i]
		if !slices.Contains(strings.Split(toolsFlag, ","), t.name) {
			continue
		}
		if t.version == "" {
			t.version = versionOf(t.name)
		}
		if t.version == "" {
			notes = append(notes, fmt.Sprintf("%s: not installed, skipped", t.name))
			continue
		}
		for _, c := range cases() {
			if casesFlag != "" && !slices.Contains(strings.Split(casesFlag, ","), c.name) {
				continue
			}
			for _, j := range jobs {
				if j > 1 && !t.par {
					continue
				}
				r := reduce(root, work, bin, c, *t, j, limit)
				fmt.Printf("%-8s %-8s -j%d  %6d tests  %8.1fs  %6d -> %d bytes  %s\n", r.Case, r.Tool, r.Jobs, r.Tests, r.Seconds, r.InputBytes, r.FinalBytes, r.Status)
				rows = append(rows, r)
			}
		}
	}
	var b strings.Builder
	b.WriteString("## Reductions\n\n")
	b.WriteString("Every tool reduces the same input with the same C-Reduce style test script (exit 0 when the failure occurs), which appends a line to a counter file at each invocation: `tests` counts every run of the test, `seconds` is wall time, `final` the size of the result, checked to still fail. C-Reduce and C-Vise run with `--not-c`; delta is `singledelta` (lines only, one test at a time). Runs are cut off after " + limit.String() + ".\n\n")
	for _, c := range cases() {
		if casesFlag != "" && !slices.Contains(strings.Split(casesFlag, ","), c.name) {
			continue
		}
		fmt.Fprintf(&b, "- **%s**: %s\n", c.name, c.about)
	}
	b.WriteString("\n| case | input bytes | tool | jobs | tests | seconds | final bytes | status |\n|---|---:|---|---:|---:|---:|---:|---|\n")
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Case < rows[j].Case })
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %s | %d | %d | %.1f | %d | %s |\n", r.Case, r.InputBytes, r.Tool, r.Jobs, r.Tests, r.Seconds, r.FinalBytes, r.Status)
	}
	b.WriteString("\nTools: ")
	for i, t := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		v := t.version
		if v == "" {
			v = "not installed"
		}
		fmt.Fprintf(&b, "%s %s", t.name, v)
	}
	b.WriteString(".\n")
	for _, n := range notes {
		b.WriteString("\n" + n + "\n")
	}
	return b.String() + "\n"
}

func reduce(root, work, bin string, c benchCase, t tool, jobs int, limit time.Duration) row {
	dir, err := os.MkdirTemp(work, c.name+"-"+t.name+"-")
	check(err)
	defer os.RemoveAll(dir)
	input, err := c.input(root)
	check(err)
	check(os.WriteFile(filepath.Join(dir, c.file), input, 0o644))
	test := filepath.Join(dir, "test.sh")
	check(os.WriteFile(test, []byte(script(c, bin)), 0o755))
	counter := filepath.Join(dir, "counter")
	r := row{Case: c.name, Tool: t.name, Jobs: jobs, InputBytes: len(input), Status: "ok"}

	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	argv := t.args(test, c.file, jobs)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BENCH_COUNTER="+counter)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	t0 := time.Now()
	err = cmd.Run()
	r.Seconds = time.Since(t0).Seconds()
	switch {
	case ctx.Err() != nil:
		r.Status = "cut off"
	case err != nil:
		r.Status = "error: " + lastLine(log.String())
	}
	if b, err := os.ReadFile(counter); err == nil {
		r.Tests = bytes.Count(b, []byte("\n"))
	}
	final, err := os.ReadFile(t.result(dir, c.file))
	if err != nil {
		r.Status = "no result"
		return r
	}
	r.FinalBytes = len(final)
	r.FinalTokens = countTokens(c.file, final)
	// The result must still fail.
	vdir, err := os.MkdirTemp(work, "verify-")
	check(err)
	defer os.RemoveAll(vdir)
	check(os.WriteFile(filepath.Join(vdir, c.file), final, 0o644))
	v := exec.Command(test)
	v.Dir = vdir
	if v.Run() != nil && r.Status == "ok" {
		r.Status = "result does not fail"
	}
	return r
}

// isolations compares wynot isolate (from the empty input to the failing
// one) with wynot reduce on the same cases and test scripts (TSE 2002 §6,
// Table 3): tests, time, and the sizes of what each returns.
func isolations(root, work, bin, casesFlag string) string {
	var b strings.Builder
	b.WriteString("## Isolation and simplification\n\n")
	b.WriteString("`wynot isolate /dev/null FILE` against `wynot reduce FILE` with the same test script, one test at a time: tests (every run of the script), seconds, the size of the minimized failing input |c'✗|, of the maximized passing input |c'✓| (the common context, TSE 2002 Table 3e) and of the failure-inducing difference |Δ| in changes at the finest granularity.\n\n")
	b.WriteString("| case | input bytes | command | tests | seconds | \\|c'✗\\| bytes | \\|c'✓\\| bytes | \\|Δ\\| |\n|---|---:|---|---:|---:|---:|---:|---:|\n")
	for _, c := range cases() {
		if c.name == "mystery" || casesFlag != "" && !slices.Contains(strings.Split(casesFlag, ","), c.name) {
			continue
		}
		for _, mode := range []string{"reduce", "isolate"} {
			dir, err := os.MkdirTemp(work, c.name+"-"+mode+"-")
			check(err)
			input, err := c.input(root)
			check(err)
			check(os.WriteFile(filepath.Join(dir, c.file), input, 0o644))
			test := filepath.Join(dir, "test.sh")
			check(os.WriteFile(test, []byte(script(c, bin)), 0o755))
			counter := filepath.Join(dir, "counter")
			args := []string{"reduce", "--json", "-q", "-j", "1", "--test", test, c.file}
			if mode == "isolate" {
				args = []string{"isolate", "--json", "-q", "-j", "1", "--test", test, "/dev/null", c.file}
			}
			cmd := exec.Command(filepath.Join(bin, "wynot"), args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "BENCH_COUNTER="+counter)
			t0 := time.Now()
			out, err := cmd.Output()
			el := time.Since(t0).Seconds()
			if err != nil {
				fmt.Fprintf(&b, "| %s | %d | %s | | | | | error: %v |\n", c.name, len(input), mode, err)
				continue
			}
			var sum struct {
				SizeAfter     int  `json:"size_after"`
				PassSize      *int `json:"pass_size"`
				ElementsAfter int  `json:"elements_after"`
			}
			check(json.Unmarshal(out, &sum))
			n, _ := os.ReadFile(counter)
			tests := bytes.Count(n, []byte("\n"))
			pass, delta := "0", strconv.Itoa(sum.ElementsAfter)
			if sum.PassSize != nil {
				pass = strconv.Itoa(*sum.PassSize)
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %d | %.1f | %d | %s | %s |\n", c.name, len(input), mode, tests, el, sum.SizeAfter, pass, delta)
			fmt.Printf("%-8s %-8s %6d tests %6.1fs fail %d pass %s delta %s\n", c.name, mode, tests, el, sum.SizeAfter, pass, delta)
			os.RemoveAll(dir)
		}
	}
	return b.String() + "\n"
}

// overhead compares wynot's wall time per test with starting the test
// process directly, for a test that does almost nothing (stat its input,
// exit): wynot reduces a 600-byte input that fails only as a whole, so
// every test passes quickly. Bare starts and wynot runs alternate, five
// times each; the medians are compared.
func overhead(work, bin string) string {
	input := filepath.Join(work, "in600")
	// Distinct bytes, so that no two candidates are the same content.
	check(os.WriteFile(input, bytes.ReplaceAll(fuzz(600, 600), []byte("\n"), []byte("x")), 0o644))
	prog := filepath.Join(bin, "exitsize")
	var bare, with []float64
	tests := 0
	for range 5 {
		// Bare: start the program as often as wynot will, one at a time.
		n := 1200
		t0 := time.Now()
		for range n {
			exec.Command(prog, input).Run()
		}
		bare = append(bare, time.Since(t0).Seconds()/float64(n))

		out := filepath.Join(work, "out600")
		t0 = time.Now()
		cmd := exec.Command(filepath.Join(bin, "wynot"), "reduce", "-q", "--json", "-j", "1", "--split", "bytes", "--precision", "exit", "-o", out, input, "--", prog, "{}")
		b, err := cmd.Output()
		el := time.Since(t0).Seconds()
		check(err)
		i := bytes.Index(b, []byte(`"tests": `))
		tests, _ = strconv.Atoi(string(b[i+9 : i+9+bytes.IndexByte(b[i+9:], ',')]))
		with = append(with, el/float64(tests))
	}
	mb, mw := median(bare), median(with)
	var s strings.Builder
	s.WriteString("## Overhead per test\n\n")
	s.WriteString("A test that stats its input and exits (`exitsize`, C). wynot reduces a 600-byte input with `-j 1 --split bytes`: every test passes, " +
		strconv.Itoa(tests) + " tests per run, each counted with wynot's start-up and the original's checks. Bare: the harness starts the same program " +
		"on the same file with `os/exec`, one at a time. Five alternating rounds; medians.\n\n")
	s.WriteString("| | time per test | ratio |\n|---|---:|---:|\n")
	fmt.Fprintf(&s, "| bare start of the test process | %.0f µs | 1.00 |\n", mb*1e6)
	fmt.Fprintf(&s, "| wynot reduce, per test | %.0f µs | %.2f |\n", mw*1e6, mw/mb)
	fmt.Printf("overhead: bare %.0f µs, wynot %.0f µs per test (%.2f×)\n", mb*1e6, mw*1e6, mw/mb)
	return s.String()
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// build puts wynot into bin: the binary named by wynot (linked), or
// ./cmd/wynot built; with progs, the cases' programs too.
func build(root, bin, wynot string, progs bool) {
	run := func(dir string, args ...string) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if wynot != "" {
		abs, err := filepath.Abs(wynot)
		check(err)
		if _, err := os.Stat(abs); err != nil {
			fatalf("-wynot: %v", err)
		}
		check(os.Symlink(abs, filepath.Join(bin, "wynot")))
	} else {
		run(root, "go", "build", "-o", filepath.Join(bin, "wynot"), "./cmd/wynot")
	}
	if !progs {
		return
	}
	for _, p := range []string{"mystery", "flex", "cc"} {
		run(root, "go", "build", "-o", filepath.Join(bin, p), "./testdata/progs/"+p)
	}
	run(root, "go", "build", "-o", filepath.Join(bin, "printer"), "./examples/printer")
	run(root, "gcc", "-O1", "-o", filepath.Join(bin, "crtplot"), "testdata/progs/crtplot/crtplot.c")
	src := filepath.Join(bin, "exitsize.c")
	check(os.WriteFile(src, []byte(`#include <sys/stat.h>
int main(int argc, char **argv) { struct stat st; if (stat(argv[1], &st) != 0) return 2; return st.st_size >= 600 ? 1 : 0; }
`), 0o644))
	run(root, "gcc", "-O2", "-o", filepath.Join(bin, "exitsize"), src)
}

func versionOf(name string) string {
	exe := name
	if name == "delta" {
		exe = "singledelta"
	}
	path, err := exec.LookPath(exe)
	if err != nil {
		return ""
	}
	if name == "delta" {
		out, _ := exec.Command(path, "-help").CombinedOutput()
		if i := bytes.Index(out, []byte("Delta version ")); i >= 0 {
			return strings.TrimSpace(string(out[i+14 : i+14+bytes.IndexByte(out[i+14:], '\n')]))
		}
		return "unknown"
	}
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(strings.TrimPrefix(lastLine(string(out)), name))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "this machine"
	}
	return h
}

func check(err error) {
	if err != nil {
		fatalf("%v", err)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "harness: "+format+"\n", args...)
	os.Exit(1)
}
