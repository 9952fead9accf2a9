package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// realBug is a case of bench/realbugs: a real bug in a released version
// of a small public Go module, as its bug.json describes it. The client
// program in client/ requires the buggy release, so that wynot finds the
// library in the module cache.
type realBug struct {
	name, dir string
	Issue     string   `json:"issue"`
	Module    string   `json:"module"`
	Version   string   `json:"version"`
	FixedIn   string   `json:"fixed_in"`
	Commit    string   `json:"fix_commit"`
	Kind      string   `json:"kind"`
	File      string   `json:"file"`
	Lines     []int    `json:"lines"`
	Insertion bool     `json:"insertion"`
	Funcs     []string `json:"funcs"`
	PassArgs  []string `json:"pass_args"`
	FailArgs  []string `json:"fail_args"`
	PassStdin string   `json:"pass_stdin"`
	FailStdin string   `json:"fail_stdin"`
	Summary   string   `json:"summary"`
}

func loadRealBugs(root, casesFlag string) []realBug {
	base := filepath.Join(root, "bench", "realbugs")
	entries, err := os.ReadDir(base)
	check(err)
	var out []realBug
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(base, e.Name(), "bug.json"))
		if err != nil {
			continue
		}
		if casesFlag != "" && !slices.Contains(strings.Split(casesFlag, ","), e.Name()) {
			continue
		}
		b := realBug{name: e.Name(), dir: filepath.Join(base, e.Name())}
		check(json.Unmarshal(data, &b))
		out = append(out, b)
	}
	return out
}

// traceSummary and chainSummary are what the harness reads of wynot
// trace --json and wynot chain --json.
type traceSummary struct {
	Tests        int      `json:"tests"`
	Instrumented []string `json:"instrumented"`
	Slice        []struct {
		File string `json:"file"`
		Line int    `json:"line"`
		Ran  int    `json:"ran"`
		Kept []int  `json:"kept"`
	} `json:"slice"`
	ElementsBefore int `json:"elements_before"`
	ElementsAfter  int `json:"elements_after"`
}

type chainSummary struct {
	Tests       int      `json:"tests"`
	Probed      []string `json:"probed"`
	Transitions []struct {
		Where     string `json:"where"`
		Func      string `json:"func"`
		Kind      string `json:"kind"`
		Suggested bool   `json:"suggested"`
	} `json:"transitions"`
}

// shellQuote joins args as a POSIX shell would read them back.
func shellQuote(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// runWynot runs wynot in dir and returns its standard output, standard
// error, the wall time and an error when it failed or was cut off.
func runWynotIn(dir, wynot string, args []string, limit time.Duration) (stdout, stderr []byte, secs float64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, wynot, args...)
	cmd.Dir = dir
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	t0 := time.Now()
	err = cmd.Run()
	secs = time.Since(t0).Seconds()
	if ctx.Err() != nil {
		err = fmt.Errorf("cut off after %s", limit)
	}
	return []byte(o.String()), []byte(e.String()), secs, err
}

// atFixed reports whether a file:line of wynot's output is in the fixed
// file of b; dist is its distance in lines from the nearest fixed line.
func (b realBug) atFixed(file string, line int) (dist int, same bool) {
	if file != b.Module+"@"+b.Version+"/"+b.File {
		return 0, false
	}
	dist = -1
	for _, l := range b.Lines {
		d := max(l-line, line-l)
		if dist < 0 || d < dist {
			dist = d
		}
	}
	return dist, true
}

// inFixedFunc reports whether fn (as wynot names a function: f,
// (*T).m or T.m) is one of the fixed functions.
func (b realBug) inFixedFunc(fn string) bool {
	// A function literal is part of the function that holds it.
	fn = closure.ReplaceAllString(fn, "")
	for _, f := range b.Funcs {
		if fn == f || strings.HasSuffix(fn, "."+f) {
			return true
		}
	}
	return false
}

var (
	fileLine = regexp.MustCompile(`^(.*):(\d+)$`)
	closure  = regexp.MustCompile(`(\.func\d+)+$`)
	control  = regexp.MustCompile(`^(?:(?:if|for|switch|select|case|default|break|continue|return|goto|else)\b|\}|//)`)
)

// simpleLines are the fixed lines that hold a statement trace can skip:
// not an insertion point, not a control statement (if, for, switch,
// return, branch statements are never skipped, so never in a slice),
// not a comment. why says what the others are when none is left.
func (b realBug) simpleLines() (lines map[int]bool, why string) {
	if b.Insertion {
		return nil, "omission"
	}
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", b.Module)
	cmd.Dir = filepath.Join(b.dir, "client")
	dir, err := cmd.Output()
	check(err)
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), b.File))
	check(err)
	text := strings.Split(string(src), "\n")
	lines = map[int]bool{}
	for _, l := range b.Lines {
		if l <= len(text) && !control.MatchString(strings.TrimSpace(text[l-1])) {
			lines[l] = true
		}
	}
	return lines, "control statement"
}

// realBugsSection runs wynot trace on each real bug's failing run and
// wynot chain on its passing and failing runs, and tells where each
// points against the upstream fix.
func realBugsSection(root, bin, casesFlag string, jobs int, limit time.Duration) string {
	wynot := filepath.Join(bin, "wynot")
	bugs := loadRealBugs(root, casesFlag)
	var b strings.Builder
	b.WriteString("## Real bugs in libraries: trace and chain\n\n")
	fmt.Fprintf(&b, "`wynot trace --json -j %d` on the failing run and `wynot chain --json -j %d` on the passing and failing runs of real bugs in released versions of small public Go modules (`bench/realbugs`: each names its upstream issue, the fixing commit and the lines it changes in the buggy release). A client program in `client/` requires the buggy release as its users have it: the library comes from the module cache, and both commands instrument it beside the client (`packages`: how many were instrumented, trace's `instrumented` and chain's `probed`, and whether the library is among them). `slice`: whether the trace's critical slice keeps an execution of a fixed line that holds a statement trace can skip (`— (omission)` when the fix only inserts statements, `— (control statement)` when every fixed line is an if, for, switch, return or branch statement, which trace never skips and so never lists; `not run` when no such line ran). `suggested`: the chain's suggested cause transition (`where`, the statement at its start and the one after), its distance in lines from the nearest fixed line (the closer end; `other file` when neither end is in the fixed file), and whether it is in a fixed function (a function literal counts as the function that holds it). Lines of a fix that inserts statements are the line before which it inserts. Runs are cut off after %s.\n\n", jobs, jobs, limit)
	for _, bg := range bugs {
		fmt.Fprintf(&b, "- **%s** ([issue](%s), %s %s, fixed in %s by %.7s, %s): %s.\n", bg.name, bg.Issue, bg.Module, bg.Version, bg.FixedIn, bg.Commit, bg.Kind, bg.Summary)
	}
	b.WriteString("\n| bug | kind | trace: packages | slice holds a fixed line | trace tests | trace s | chain: packages | suggested | distance | in fixed function | chain tests | chain s |\n|---|---|---|---|---:|---:|---|---|---|---|---:|---:|\n")
	type tally struct{ bugs, inFunc, within3, sliceOK, sliceRan, flaky int }
	var t tally
	var notes []string
	for _, bg := range bugs {
		t.bugs++
		j := strconv.Itoa(jobs)
		// Trace the failing run.
		args := []string{"trace", "--json", "-q", "-j", j}
		if bg.FailStdin != "" {
			args = append(args, "--stdin", bg.FailStdin)
		}
		args = append(args, "./client")
		if len(bg.FailArgs) > 0 {
			args = append(append(args, "--"), bg.FailArgs...)
		}
		out, errOut, tsecs, err := runWynotIn(bg.dir, wynot, args, limit)
		if strings.Contains(string(out)+string(errOut), "flaky") {
			t.flaky++
			notes = append(notes, bg.name+": trace says flaky")
		}
		var ts traceSummary
		tracePkgs, slice, ttests := "error", "error", ""
		if err != nil || json.Unmarshal(out, &ts) != nil {
			notes = append(notes, fmt.Sprintf("%s: trace: %v %s", bg.name, err, lastLine(string(errOut))))
		} else {
			tracePkgs = fmt.Sprintf("%d, %s", len(ts.Instrumented), libraryAmong(bg.Module, ts.Instrumented))
			ran, kept := false, false
			simple, why := bg.simpleLines()
			for _, e := range ts.Slice {
				if _, ok := bg.atFixed(e.File, e.Line); ok && simple[e.Line] {
					ran = ran || e.Ran > 0
					kept = kept || len(e.Kept) > 0
				}
			}
			switch {
			case kept:
				slice = "yes"
				t.sliceOK++
				t.sliceRan++
			case ran:
				slice = "no"
				t.sliceRan++
			case len(simple) == 0:
				slice = "— (" + why + ")"
			default:
				slice = "not run"
			}
			ttests = strconv.Itoa(ts.Tests)
		}
		// The chain from the passing to the failing run.
		args = []string{"chain", "--json", "-q", "-j", j}
		if bg.PassStdin != "" {
			args = append(args, "--pass-stdin", bg.PassStdin, "--fail-stdin", bg.FailStdin)
		}
		if len(bg.PassArgs) > 0 || len(bg.FailArgs) > 0 {
			args = append(args, "--pass", shellQuote(bg.PassArgs), "--fail", shellQuote(bg.FailArgs))
		}
		args = append(args, "./client")
		out, errOut, csecs, err := runWynotIn(bg.dir, wynot, args, limit)
		if strings.Contains(string(out)+string(errOut), "flaky") {
			t.flaky++
			notes = append(notes, bg.name+": chain says flaky")
		}
		var cs chainSummary
		chainPkgs, where, dist, inFunc, ctests := "error", "error", "", "", ""
		if err != nil || json.Unmarshal(out, &cs) != nil {
			notes = append(notes, fmt.Sprintf("%s: chain: %v %s", bg.name, err, lastLine(string(errOut))))
		} else {
			chainPkgs = fmt.Sprintf("%d, %s", len(cs.Probed), libraryAmong(bg.Module, cs.Probed))
			where, dist, inFunc = "none", "—", "no"
			for _, tr := range cs.Transitions {
				if !tr.Suggested {
					continue
				}
				where = "`" + strings.ReplaceAll(tr.Where, bg.Module+"@"+bg.Version+"/", "") + "` in `" + tr.Func + "` (" + tr.Kind + ")"
				best := -1
				for _, end := range strings.Split(tr.Where, " → ") {
					if m := fileLine.FindStringSubmatch(strings.TrimSpace(end)); m != nil {
						line, _ := strconv.Atoi(m[2])
						if d, ok := bg.atFixed(m[1], line); ok && (best < 0 || d < best) {
							best = d
						}
					}
				}
				dist = "other file"
				if best >= 0 {
					dist = strconv.Itoa(best)
					if best <= 3 {
						t.within3++
					}
				}
				if bg.inFixedFunc(tr.Func) {
					inFunc = "yes"
					t.inFunc++
				}
				break
			}
			ctests = strconv.Itoa(cs.Tests)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %.1f |\n", bg.name, bg.Kind, tracePkgs, slice, ttests, tsecs, chainPkgs, where, dist, inFunc, ctests, csecs)
		fmt.Printf("%-15s trace %s slice %s %s tests %.1fs | chain %s %s dist %s func %s %s tests %.1fs\n", bg.name, tracePkgs, slice, ttests, tsecs, chainPkgs, where, dist, inFunc, ctests, csecs)
	}
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "not met"
	}
	b.WriteString("\nThe goal, and whether it is met:\n\n")
	fmt.Fprintf(&b, "- chain's suggestion in a fixed function on every bug: %d of %d, %s;\n", t.inFunc, t.bugs, met(t.inFunc == t.bugs))
	fmt.Fprintf(&b, "- within 3 lines of a fixed line on at least half: %d of %d, %s;\n", t.within3, t.bugs, met(2*t.within3 >= t.bugs))
	fmt.Fprintf(&b, "- trace's slice holds a fixed line wherever the fix changes a statement that ran: %d of %d, %s;\n", t.sliceOK, t.sliceRan, met(t.sliceOK == t.sliceRan))
	fmt.Fprintf(&b, "- no \"flaky\" verdict on these deterministic programs: %d, %s.\n", t.flaky, met(t.flaky == 0))
	for _, n := range notes {
		b.WriteString("\n" + n + "\n")
	}
	return b.String() + "\n"
}

// libraryAmong says whether a package of module is in pkgs.
func libraryAmong(module string, pkgs []string) string {
	for _, p := range pkgs {
		if p == module || strings.HasPrefix(p, module+"/") {
			return "library in"
		}
	}
	return "library not in"
}
