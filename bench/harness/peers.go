package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// The peers section: wynot against C-Vise, C-Reduce, shrinkray and
// picire on every public reduction case of bench/, one reduction at a
// time, each with two tests in parallel and the same wall cap. The
// peers' runs are cached in bench/peers/results.json (keyed by tool,
// case and the input's digest), so that the table can be made again
// with fresh wynot numbers without running the peers again.

// peerCases are the cases of the peers section, in the order they run:
// the crashers of bench/crashers, the reductions section's cases, the
// syntax section's markup, the SQL case and the Perses Go cases.
func peerCases(root, perses, crashersBin string) []benchCase {
	var cs []benchCase
	for _, name := range []string{"toml-gotoml", "toml-burntsushi", "yaml-v3", "yaml-goccy", "hcl-v1"} {
		dir := filepath.Join(root, "bench/crashers", name)
		ins, _ := filepath.Glob(filepath.Join(dir, "input.*"))
		if len(ins) != 1 {
			continue
		}
		file := filepath.Base(ins[0])
		cs = append(cs, benchCase{
			name: name, file: file, input: fileInput(filepath.Join("bench/crashers", name, file)),
			// The case's own test counts its runs too: not twice.
			check: fmt.Sprintf(`BENCH_COUNTER= CRASHERS_BIN=%q %q "$f"`, crashersBin, filepath.Join(dir, "test.sh")),
			about: "bench/crashers/" + name + ": a panic of a released Go parser (bench/crashers/README.md).",
		})
	}
	cs = append(cs, cases()...)
	for _, c := range syntaxCases(root, perses) {
		if c.name == "markup" {
			cs = append(cs, c)
		}
	}
	cs = append(cs, benchCase{
		name: "sqlite", file: "chinook.sql", input: fileInput("bench/sql/chinook.sql"),
		check: fmt.Sprintf(`sh %q "$f"`, filepath.Join(root, "bench/sql/test.sh")),
		about: "bench/sql: a wrong result of sqlite3 3.40.1 in a 516-line script (bench/sql/README.md).",
	})
	for _, c := range syntaxCases(root, perses) {
		if strings.HasPrefix(c.name, "go-") {
			cs = append(cs, c)
		}
	}
	return cs
}

// peerTools are wynot and the peers as the peers section runs them.
// C-Reduce and C-Vise use their C mode on .c files and --not-c
// otherwise; shrinkray its plain interface with no formatter; picire
// lines then characters, in parallel, with the cache that bears long
// inputs, latin-1 (any byte) and its own time limit a little under the
// cap, since it writes its result only at the end.
func peerTools(wynot string, limit time.Duration) []tool {
	picireLimit := max(int(limit.Seconds())-15, int(limit.Seconds())*9/10)
	return []tool{
		wynotTool("wynot", wynot),
		cReduceTool("creduce", notC),
		cReduceTool("cvise", notC),
		{name: "shrinkray", par: true,
			args: func(test, file string, j int) []string {
				return []string{peerPath("shrinkray"), "--parallelism", strconv.Itoa(j), "--ui", "basic", "--no-history",
					"--formatter", "none", "--trivial-is-not-error", test, file}
			}, result: inPlace},
		{name: "picire", par: true,
			args: func(test, file string, j int) []string {
				return []string{peerPath("picire"), "-i", file, "--test", test, "-p", "-j", strconv.Itoa(j), "--atom", "both",
					"--cache", "config-tuple", "--encoding", "latin-1", "--limit-time", strconv.Itoa(picireLimit), "-o", "picire.out"}
			}, result: func(dir, file string) string { return filepath.Join(dir, "picire.out", file) }},
	}
}

// peerPath finds a peer on $PATH, else in bench/peers/install.sh's
// $WYNOT_PEERS/bin.
func peerPath(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	dir := os.Getenv("WYNOT_PEERS")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "wynot-peers")
	}
	p := filepath.Join(dir, "bin", name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

func peerVersion(name string) string {
	p := peerPath(name)
	if p == "" {
		return ""
	}
	out, err := exec.Command(p, "--version").CombinedOutput()
	if err != nil {
		return "unknown"
	}
	v := strings.TrimSpace(lastLine(string(out)))
	v = strings.TrimPrefix(v, name+", version ")
	v = strings.TrimPrefix(v, name+" ")
	v = strings.TrimPrefix(v, "__main__.py ")
	v = strings.TrimPrefix(v, "version ")
	return v
}

// peerRun is one reduction, as cached.
type peerRun struct {
	Tool        string  `json:"tool"`
	Version     string  `json:"version"`
	Case        string  `json:"case"`
	InputSHA256 string  `json:"input_sha256"`
	InputBytes  int     `json:"input_bytes"`
	Jobs        int     `json:"jobs"`
	CapSeconds  int     `json:"cap_seconds"`
	Tests       int     `json:"tests"`
	Seconds     float64 `json:"seconds"`
	FinalBytes  int     `json:"final_bytes"`
	// Status is ok, cut off (at the cap, or picire's own limit), error:
	// ..., or no result.
	Status string `json:"status"`
	// Reproduces: the final file, run once more with the test in a
	// fresh directory, still fails.
	Reproduces bool `json:"reproduces"`
	// Final is the result's text when short and valid UTF-8.
	Final   string `json:"final,omitempty"`
	Date    string `json:"date"`
	Machine string `json:"machine"`
}

type peerCache struct {
	Note string    `json:"note"`
	Runs []peerRun `json:"runs"`
}

func (pc *peerCache) find(tool, name, digest string, jobs, capSec int) *peerRun {
	for i := range pc.Runs {
		r := &pc.Runs[i]
		if r.Tool == tool && r.Case == name && r.InputSHA256 == digest && r.Jobs == jobs && r.CapSeconds == capSec {
			return r
		}
	}
	return nil
}

func (pc *peerCache) put(r peerRun) {
	pc.Runs = slices.DeleteFunc(pc.Runs, func(o peerRun) bool {
		return o.Tool == r.Tool && o.Case == r.Case && o.InputSHA256 == r.InputSHA256 && o.Jobs == r.Jobs && o.CapSeconds == r.CapSeconds
	})
	pc.Runs = append(pc.Runs, r)
	slices.SortStableFunc(pc.Runs, func(a, b peerRun) int {
		return strings.Compare(a.Case+"\x00"+a.Tool, b.Case+"\x00"+b.Tool)
	})
}

func (pc *peerCache) save(path string) {
	b, err := json.MarshalIndent(pc, "", "  ")
	check(err)
	check(os.WriteFile(path, append(b, '\n'), 0o644))
}

// runPeer reduces c's input with t in a fresh directory under work,
// two tests at a time, stopping it at limit (SIGTERM to its process
// group, SIGKILL 10 s later), and checks the result with one more run
// of the test.
func runPeer(root, work, bin string, c benchCase, t tool, jobs int, limit time.Duration, machine string) peerRun {
	dir, err := os.MkdirTemp(work, c.name+"-"+t.name+"-")
	check(err)
	defer os.RemoveAll(dir)
	input, err := c.input(root)
	check(err)
	sum := sha256.Sum256(input)
	r := peerRun{Tool: t.name, Version: t.version, Case: c.name, InputSHA256: hex.EncodeToString(sum[:]), InputBytes: len(input),
		Jobs: jobs, CapSeconds: int(limit.Seconds()), Status: "ok",
		Date: time.Now().UTC().Format("2006-01-02"), Machine: machine}
	run := filepath.Join(dir, "run")
	tmp := filepath.Join(dir, "tmp")
	check(os.Mkdir(run, 0o755))
	check(os.Mkdir(tmp, 0o755))
	check(os.WriteFile(filepath.Join(run, c.file), input, 0o644))
	test := filepath.Join(dir, "test.sh")
	check(os.WriteFile(test, []byte(script(c, bin)), 0o755))
	counter := filepath.Join(dir, "counter")

	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	argv := t.args(test, c.file, jobs)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = run
	cmd.Env = append(envWithout("BENCH_COUNTER", "TMPDIR"), "BENCH_COUNTER="+counter, "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	t0 := time.Now()
	err = cmd.Run()
	r.Seconds = time.Since(t0).Seconds()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	switch {
	case ctx.Err() != nil:
		r.Status = "cut off"
		r.Seconds = limit.Seconds()
	case err != nil:
		r.Status = "error: " + lastLine(log.String())
	case t.name == "picire" && strings.Contains(log.String(), "stopped prematurely"):
		r.Status = "cut off"
	}
	if os.Getenv("PEERS_LOG") != "" {
		os.WriteFile(filepath.Join(os.Getenv("PEERS_LOG"), c.name+"."+t.name+".log"), log.Bytes(), 0o644)
	}
	if b, err := os.ReadFile(counter); err == nil {
		r.Tests = bytes.Count(b, []byte("\n"))
	}
	final, err := os.ReadFile(t.result(run, c.file))
	if err != nil {
		if r.Status == "ok" {
			r.Status = "no result"
		}
		return r
	}
	r.FinalBytes = len(final)
	if len(final) <= 300 && utf8.Valid(final) {
		r.Final = string(final)
	}
	vdir := filepath.Join(dir, "verify")
	check(os.Mkdir(vdir, 0o755))
	check(os.WriteFile(filepath.Join(vdir, c.file), final, 0o644))
	v := exec.Command(test)
	v.Dir = vdir
	v.Env = append(envWithout("BENCH_COUNTER", "TMPDIR"), "TMPDIR="+tmp)
	r.Reproduces = v.Run() == nil
	return r
}

func envWithout(names ...string) []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return slices.Contains(names, kv[:strings.IndexByte(kv+"=", '=')])
	})
}

// peersSection runs wynot (always) and every peer missing from the
// cache (all with rerun) on the peer cases, and makes the table.
func peersSection(root, work, bin, toolsFlag, casesFlag, perses, cachePath string, rerun, toolsSet bool, limit time.Duration) string {
	crashersBin := filepath.Join(work, "crashers")
	build := exec.Command("sh", filepath.Join(root, "bench/crashers/build.sh"), crashersBin)
	if out, err := build.CombinedOutput(); err != nil {
		fatalf("bench/crashers/build.sh: %v\n%s", err, out)
	}
	machine := fmt.Sprintf("%s, %d CPUs, %s; other builds and tests ran beside the reducers", hostname(), runtime.NumCPU(), runtime.Version())
	var pc peerCache
	if b, err := os.ReadFile(cachePath); err == nil {
		check(json.Unmarshal(b, &pc))
	}
	pc.Note = "Peer reducers' runs for `go run ./bench/harness -only peers` (bench/harness/peers.go): one reduction at a time, 2 tests in parallel, cut off at cap_seconds; a run is reused while its tool, case, input digest, jobs and cap match (-peers-rerun runs it again)."
	const jobs = 2
	capSec := int(limit.Seconds())
	cs := peerCases(root, perses, crashersBin)
	ts := peerTools(filepath.Join(bin, "wynot"), limit)
	fresh := map[string]peerRun{}
	var shown []benchCase
	for _, c := range cs {
		if casesFlag != "" && !slices.Contains(strings.Split(casesFlag, ","), c.name) {
			continue
		}
		shown = append(shown, c)
		input, err := c.input(root)
		check(err)
		sum := sha256.Sum256(input)
		digest := hex.EncodeToString(sum[:])
		for i := range ts {
			t := &ts[i]
			if toolsSet && !slices.Contains(strings.Split(toolsFlag, ","), t.name) {
				continue
			}
			if t.name != "wynot" && !rerun && pc.find(t.name, c.name, digest, jobs, capSec) != nil {
				continue
			}
			if t.version == "" {
				t.version = peerVersion(t.name)
			}
			if t.version == "" {
				fmt.Printf("%s: not installed, skipped\n", t.name)
				continue
			}
			r := runPeer(root, work, bin, c, *t, jobs, limit, machine)
			fmt.Printf("%-16s %-9s %6d tests %7.1fs %6d -> %6d bytes  %s, reproduces %v\n", r.Case, r.Tool, r.Tests, r.Seconds, r.InputBytes, r.FinalBytes, r.Status, r.Reproduces)
			if r.Final != "" && len(r.Final) <= 100 {
				fmt.Printf("%-16s %-9s final %q\n", r.Case, r.Tool, r.Final)
			}
			if t.name == "wynot" {
				fresh[c.name] = r
				continue
			}
			pc.put(r)
			pc.save(cachePath)
		}
	}
	return peersTable(root, shown, ts, fresh, &pc, cachePath, capSec)
}

func peersTable(root string, cs []benchCase, ts []tool, fresh map[string]peerRun, pc *peerCache, cachePath string, capSec int) string {
	var b strings.Builder
	b.WriteString("## Reducers side by side\n\n")
	fmt.Fprintf(&b, "wynot, C-Reduce, C-Vise, shrinkray and picire on every public reduction case of bench/, one reduction at a time, each with 2 tests in parallel and cut off after %d s of wall time. Each tool gets a copy of the input in a fresh temporary directory and the same C-Reduce style test script, which appends a line to a counter file at each run: **tests** counts every run of the test, **s** is wall seconds, **B** the size of the final file in bytes; every final file is run once more with the test, and one that no longer fails is marked ✗. † marks a run cut off at the cap (its result is the best it had then). wynot is measured afresh at each run of the section; the peers' runs come from %s, where each is recorded with its date and machine. The machine has 2 cores and other sessions' builds and tests ran beside the reducers, so the seconds are noisy (easily ±30%%).\n\n", capSec, relTo(root, cachePath))
	b.WriteString("Settings: `wynot reduce -j 2`; `creduce --n 2` and `cvise --n 2` with `--not-c` but on the C case; `shrinkray --parallelism 2 --ui basic --no-history --formatter none`; `picire -p -j 2 --atom both --cache config-tuple --encoding latin-1 --limit-time` (15 s under the cap, as picire writes its result only at the end).\n\n")
	for _, c := range cs {
		fmt.Fprintf(&b, "- **%s** (%s): %s\n", c.name, c.file, c.about)
	}
	b.WriteString("\nCells: B / tests / s.\n\n| case | input B |")
	for _, t := range ts {
		fmt.Fprintf(&b, " %s |", t.name)
	}
	b.WriteString("\n|---|---:|")
	for range ts {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	var verdicts []string
	var dropped []string
	for _, c := range cs {
		input, err := c.input(root)
		check(err)
		sum := sha256.Sum256(input)
		digest := hex.EncodeToString(sum[:])
		fmt.Fprintf(&b, "| %s | %d |", c.name, len(input))
		var peers []peerRun
		var w *peerRun
		for _, t := range ts {
			var r *peerRun
			if t.name == "wynot" {
				if f, ok := fresh[c.name]; ok {
					r = &f
					w = r
				}
			} else if r = pc.find(t.name, c.name, digest, 2, capSec); r != nil {
				peers = append(peers, *r)
			}
			if r == nil {
				b.WriteString(" not run |")
				if t.name != "wynot" {
					dropped = append(dropped, t.name+" on "+c.name)
				}
				continue
			}
			fmt.Fprintf(&b, " %s |", cell(*r))
		}
		b.WriteString("\n")
		verdicts = append(verdicts, verdictLine(c.name, w, peers))
	}
	b.WriteString("\nPer case: is wynot's result at most the smallest reproducing peer result, and is wynot's time within 0.2× the time of the fastest peer that ended with a reproducing result (a peer cut off at the cap counts with the cap)?\n\n")
	b.WriteString("| case | wynot B | smallest peer B | wynot ≤ smallest | wynot s | fastest peer s | 0.2× fastest | wynot within |\n|---|---:|---|---|---:|---|---:|---|\n")
	for _, v := range verdicts {
		b.WriteString(v)
	}
	b.WriteString("\nVersions: ")
	seen := map[string]string{}
	for _, r := range pc.Runs {
		seen[r.Tool] = r.Version
	}
	for i, t := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		v := t.version
		if v == "" {
			v = seen[t.name]
		}
		fmt.Fprintf(&b, "%s %s", t.name, v)
	}
	b.WriteString(".\n")
	if len(dropped) > 0 {
		b.WriteString("\nNot run (no cached run for this input, cap and jobs): " + strings.Join(dropped, ", ") + ".\n")
	}
	return b.String() + "\n"
}

func cell(r peerRun) string {
	s := fmt.Sprintf("%d / %d / %.1f", r.FinalBytes, r.Tests, r.Seconds)
	switch {
	case r.Status == "cut off":
		s += " †"
	case strings.HasPrefix(r.Status, "error: "):
		// The exception's or message's name, not its whole text.
		msg := strings.TrimPrefix(r.Status, "error: ")
		if i := strings.IndexByte(msg, ':'); i > 0 {
			msg = msg[:i]
		}
		if len(msg) > 40 {
			msg = msg[:40] + "…"
		}
		s += " (failed: " + msg + ")"
	case r.Status != "ok":
		s += " (" + r.Status + ")"
	}
	if !r.Reproduces {
		s += " ✗"
	}
	return s
}

func verdictLine(name string, w *peerRun, peers []peerRun) string {
	var small, fast *peerRun
	for i := range peers {
		p := &peers[i]
		// A peer that failed (C-Vise on bytes that are not UTF-8) has
		// no result of its own to compare.
		if !p.Reproduces || p.Status != "ok" && p.Status != "cut off" {
			continue
		}
		if small == nil || p.FinalBytes < small.FinalBytes {
			small = p
		}
		if fast == nil || p.Seconds < fast.Seconds {
			fast = p
		}
	}
	if w == nil {
		return fmt.Sprintf("| %s | not run | | | | | | |\n", name)
	}
	wb := strconv.Itoa(w.FinalBytes)
	if !w.Reproduces {
		wb += " ✗"
	}
	if small == nil {
		return fmt.Sprintf("| %s | %s | no reproducing peer result | | %.1f | | | |\n", name, wb, w.Seconds)
	}
	le := "yes"
	if !w.Reproduces || w.FinalBytes > small.FinalBytes {
		le = "**no**"
	}
	within := "yes"
	if w.Seconds > 0.2*fast.Seconds {
		within = "**no**"
	}
	return fmt.Sprintf("| %s | %s | %d (%s) | %s | %.1f | %.1f (%s) | %.1f | %s |\n", name, wb, small.FinalBytes, small.Tool, le, w.Seconds, fast.Seconds, fast.Tool, 0.2*fast.Seconds, within)
}

func relTo(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
