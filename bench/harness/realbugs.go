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
	Tests     int      `json:"tests"`
	Probed    []string `json:"probed"`
	Suggested *struct {
		Where string `json:"where"`
		Func  string `json:"func"`
		Why   string `json:"why"`
	} `json:"suggested"`
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
func (b realBug) atFixed(su setup, file string, line int) (dist int, same bool) {
	if file != su.prefix+b.File {
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

// A setup is how a real bug's client meets the library: requiring the
// buggy release from the module cache ("client"), or as a package inside
// a copy of the library's own module ("in module").
type setup struct {
	name   string
	dir    string // where wynot runs
	target string // the client's package directory, relative to dir
	prefix string // what wynot's file names of the library begin with
}

// setups are the two setups of a bug; the in-module one is made in a
// copy of the library's module under work.
func (b realBug) setups(work string) []setup {
	out := []setup{{"client", b.dir, "./client", b.Module + "@" + b.Version + "/"}}
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", b.Module)
	cmd.Dir = filepath.Join(b.dir, "client")
	src, err := cmd.Output()
	check(err)
	lib := filepath.Join(work, "realbugs", b.name)
	os.RemoveAll(lib)
	check(os.CopyFS(lib, os.DirFS(strings.TrimSpace(string(src)))))
	check(filepath.WalkDir(lib, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			mode := os.FileMode(0o644)
			if d.IsDir() {
				mode = 0o755
			}
			err = os.Chmod(p, mode)
		}
		return err
	}))
	// A release made before the library had a go.mod is a module all
	// the same to its users (the go command gives it a go.mod of its
	// path, at go 1.16); its copy needs that go.mod to be a main module.
	if _, err := os.Stat(filepath.Join(lib, "go.mod")); os.IsNotExist(err) {
		check(os.WriteFile(filepath.Join(lib, "go.mod"), []byte("module "+b.Module+"\n\ngo 1.16\n"), 0o644))
	}
	client := filepath.Join(lib, "wynotclient")
	check(os.MkdirAll(client, 0o755))
	files, err := filepath.Glob(filepath.Join(b.dir, "client", "*.go"))
	check(err)
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		// The library's go line may be older than the client's Go
		// (any): a build line states the file's own version.
		check(os.WriteFile(filepath.Join(client, filepath.Base(f)), append([]byte("//go:build go1.18\n\n"), data...), 0o644))
	}
	for _, in := range []string{b.PassStdin, b.FailStdin} {
		if in != "" {
			data, err := os.ReadFile(filepath.Join(b.dir, in))
			check(err)
			check(os.WriteFile(filepath.Join(lib, in), data, 0o644))
		}
	}
	return append(out, setup{"in module", lib, "./wynotclient", ""})
}

// realBugsSection runs wynot trace on each real bug's failing run and
// wynot chain on its passing and failing runs, in both setups, and tells
// where each points against the upstream fix.
func realBugsSection(root, bin, casesFlag string, jobs int, limit time.Duration, logDir string) string {
	wynot := filepath.Join(bin, "wynot")
	bugs := loadRealBugs(root, casesFlag)
	work, err := os.MkdirTemp("", "wynot-realbugs-")
	check(err)
	defer os.RemoveAll(work)
	var b strings.Builder
	b.WriteString("## Real bugs in libraries: trace and chain\n\n")
	fmt.Fprintf(&b, "`wynot trace --json -j %d` on the failing run (alone, and against the passing run with `--pass`) and `wynot chain --json -j %d` on the passing and failing runs of real bugs in released versions of small public Go modules (`bench/realbugs`: each names its upstream issue, the fixing commit and the lines it changes in the buggy release), in two setups. **client**: a client program in `client/` requires the buggy release as its users have it; the library comes from the module cache, and both commands instrument it beside the client. **in module**: the same client as a package of a copy of the library's own module (its main module). `packages`: how many were instrumented, trace's `instrumented` and chain's `probed`, and whether the library is among them. `slice`: whether the trace's critical slice keeps an execution of a fixed line that holds a statement trace can skip (`— (omission)` when the fix only inserts statements, `— (control statement)` when every fixed line is an if, for, switch, return or branch statement, which trace never skips and so never lists, unless it lists the short variable declaration an if or switch begins with; `not run` when no such line ran); `with --pass`: the same for `wynot trace --pass` with the bug's passing run, which every test runs too with the same instances skipped and which must keep its output as well. `suggested`: the statement the chain suggests as the defect's location (and why: `overwrite`, the first statement that overwrote a variable carrying the cause; `diverges`, the first branch leading the failing run where the passing run never goes; `statement`, the first statement that moved the cause; `parting`, the branch where the runs' control flow parted on the way to the transition a rule picked; `crash`, the statement at which the failing run crashed; `arrives`, the statement the failing run came to by a way the passing run never takes, where the cause appeared out of what the chain captures; `reports`, a branch into the statement that makes the failing output's error message; `last state`, the statement of the last state with a cause), its distance in lines from the nearest fixed line (`other file` when it is not in the fixed file), and whether it is in a fixed function (a function literal counts as the function that holds it). Lines of a fix that inserts statements are the line before which it inserts. Runs are cut off after %s.\n\n", jobs, jobs, limit)
	for _, bg := range bugs {
		fmt.Fprintf(&b, "- **%s** ([issue](%s), %s %s, fixed in %s by %.7s, %s): %s.\n", bg.name, bg.Issue, bg.Module, bg.Version, bg.FixedIn, bg.Commit, bg.Kind, bg.Summary)
	}
	b.WriteString("\n| bug | setup | kind | trace: packages | slice holds a fixed line | trace tests | trace s | with --pass: slice holds a fixed line | tests | s | chain: packages | suggested | distance | in fixed function | chain tests | chain s |\n|---|---|---|---|---|---:|---:|---|---:|---:|---|---|---|---|---:|---:|\n")
	type tally struct{ bugs, inFunc, within3, sliceOK, sliceRan, passOK, passRan, flaky int }
	tallies := map[string]*tally{"client": {}, "in module": {}}
	var notes []string
	for _, bg := range bugs {
		for _, su := range bg.setups(work) {
			t := tallies[su.name]
			t.bugs++
			tag := bg.name
			if su.name != "client" {
				tag += ".inmodule"
			}
			j := strconv.Itoa(jobs)
			// Trace the failing run, alone and against the passing run
			// (--pass).
			traceRun := func(paired bool) (pkgs, slice, tests string, secs float64, ok, ran bool) {
				args := []string{"trace", "--json", "-q", "-j", j}
				if bg.FailStdin != "" {
					args = append(args, "--stdin", bg.FailStdin)
				}
				name := tag + ".trace"
				if paired {
					name += "-pass"
					args = append(args, "--pass", shellQuote(bg.PassArgs))
					if bg.PassStdin != "" {
						args = append(args, "--pass-stdin", bg.PassStdin)
					}
				}
				args = append(args, su.target)
				if len(bg.FailArgs) > 0 {
					args = append(append(args, "--"), bg.FailArgs...)
				}
				out, errOut, secs, err := runWynotIn(su.dir, wynot, args, limit)
				keepLog(logDir, name, out, errOut)
				if strings.Contains(string(out)+string(errOut), "flaky") {
					t.flaky++
					notes = append(notes, name+": trace says flaky")
				}
				var ts traceSummary
				if err != nil || json.Unmarshal(out, &ts) != nil {
					notes = append(notes, fmt.Sprintf("%s: %v %s", name, err, lastLine(string(errOut))))
					return "error", "error", "", secs, false, false
				}
				pkgs = fmt.Sprintf("%d, %s", len(ts.Instrumented), libraryAmong(bg.Module, ts.Instrumented))
				kept := false
				simple, why := bg.simpleLines()
				for _, e := range ts.Slice {
					// trace lists only statements it can skip: a fixed
					// line it lists holds one, as the short variable
					// declaration of an if or switch does.
					if _, ok := bg.atFixed(su, e.File, e.Line); ok && (simple[e.Line] || !bg.Insertion && slices.Contains(bg.Lines, e.Line)) {
						ran = ran || e.Ran > 0
						kept = kept || len(e.Kept) > 0
					}
				}
				switch {
				case kept:
					slice, ok, ran = "yes", true, true
				case ran:
					slice = "no"
				case len(simple) == 0:
					slice = "— (" + why + ")"
				default:
					slice = "not run"
				}
				return pkgs, slice, strconv.Itoa(ts.Tests), secs, ok, ran
			}
			tracePkgs, slice, ttests, tsecs, ok, ran := traceRun(false)
			if ran {
				t.sliceRan++
			}
			if ok {
				t.sliceOK++
			}
			_, pslice, ptests, psecs, ok, ran := traceRun(true)
			if ran {
				t.passRan++
			}
			if ok {
				t.passOK++
			}
			// The chain from the passing to the failing run.
			args := []string{"chain", "--json", "-q", "-j", j}
			if bg.PassStdin != "" {
				args = append(args, "--pass-stdin", bg.PassStdin, "--fail-stdin", bg.FailStdin)
			}
			if len(bg.PassArgs) > 0 || len(bg.FailArgs) > 0 {
				args = append(args, "--pass", shellQuote(bg.PassArgs), "--fail", shellQuote(bg.FailArgs))
			}
			args = append(args, su.target)
			out, errOut, csecs, err := runWynotIn(su.dir, wynot, args, limit)
			keepLog(logDir, tag+".chain", out, errOut)
			if strings.Contains(string(out)+string(errOut), "flaky") {
				t.flaky++
				notes = append(notes, tag+": chain says flaky")
			}
			var cs chainSummary
			chainPkgs, where, dist, inFunc, ctests := "error", "error", "", "", ""
			if err != nil || json.Unmarshal(out, &cs) != nil {
				notes = append(notes, fmt.Sprintf("%s: chain: %v %s", tag, err, lastLine(string(errOut))))
			} else {
				chainPkgs = fmt.Sprintf("%d, %s", len(cs.Probed), libraryAmong(bg.Module, cs.Probed))
				where, dist, inFunc = "none", "—", "no"
				if sg := cs.Suggested; sg != nil {
					how := "transition"
					switch {
					case strings.HasPrefix(sg.Why, "the branch at which"):
						how = "parting"
					case strings.Contains(sg.Why, "crashed"):
						how = "crash"
					case strings.HasPrefix(sg.Why, "the first statement that overwrote"):
						how = "overwrite"
					case strings.HasPrefix(sg.Why, "the first branch where the cause leads the failing run on to report"):
						how = "reports"
					case strings.HasPrefix(sg.Why, "the first branch where the cause leads"):
						how = "diverges"
					case strings.HasPrefix(sg.Why, "the first statement the failing run came to"):
						how = "arrives"
					case strings.HasPrefix(sg.Why, "the statement of the last state"):
						how = "last state"
					case strings.HasPrefix(sg.Why, "the first statement that moved"):
						how = "statement"
					}
					where = "`" + strings.TrimPrefix(sg.Where, su.prefix) + "` in `" + sg.Func + "` (" + how + ")"
					dist = "other file"
					if m := fileLine.FindStringSubmatch(sg.Where); m != nil {
						line, _ := strconv.Atoi(m[2])
						if d, ok := bg.atFixed(su, m[1], line); ok {
							dist = strconv.Itoa(d)
							if d <= 3 {
								t.within3++
							}
						}
					}
					if bg.inFixedFunc(sg.Func) {
						inFunc = "yes"
						t.inFunc++
					}
				}
				ctests = strconv.Itoa(cs.Tests)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %.1f | %s | %s | %s | %s | %s | %.1f |\n", bg.name, su.name, bg.Kind, tracePkgs, slice, ttests, tsecs, pslice, ptests, psecs, chainPkgs, where, dist, inFunc, ctests, csecs)
			fmt.Printf("%-15s %-9s trace %s slice %s %s tests %.1fs, --pass %s %s tests %.1fs | chain %s %s dist %s func %s %s tests %.1fs\n", bg.name, su.name, tracePkgs, slice, ttests, tsecs, pslice, ptests, psecs, chainPkgs, where, dist, inFunc, ctests, csecs)
		}
	}
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "not met"
	}
	b.WriteString("\nThe goal (with the library as a requirement: the client setup), and whether it is met; the in-module setup beside it:\n\n")
	c, m := tallies["client"], tallies["in module"]
	fmt.Fprintf(&b, "- chain's suggestion in a fixed function on every bug: %d of %d, %s (in module: %d of %d);\n", c.inFunc, c.bugs, met(c.inFunc == c.bugs), m.inFunc, m.bugs)
	fmt.Fprintf(&b, "- within 3 lines of a fixed line on at least half: %d of %d, %s (in module: %d of %d);\n", c.within3, c.bugs, met(2*c.within3 >= c.bugs), m.within3, m.bugs)
	fmt.Fprintf(&b, "- trace's slice holds a fixed line wherever the fix changes a statement that ran: of the failing run alone, %d of %d, %s (in module: %d of %d); against the passing run (--pass), %d of %d, %s (in module: %d of %d);\n", c.sliceOK, c.sliceRan, met(c.sliceOK == c.sliceRan), m.sliceOK, m.sliceRan, c.passOK, c.passRan, met(c.passOK == c.passRan), m.passOK, m.passRan)
	fmt.Fprintf(&b, "- no \"flaky\" verdict on these deterministic programs: %d, %s (in module: %d).\n", c.flaky, met(c.flaky == 0), m.flaky)
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
