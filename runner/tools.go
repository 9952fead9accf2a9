package runner

import (
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/wynot/wynot/internal/enum"
)

// Phase is how far a run got before it failed, as the tool whose output
// it is tells it: a test that did not build, or whose tool could not
// even start on it, did not fail the way a test that ran fails, whatever
// its exit status (a go test that does not build exits 1, as one whose
// test fails does).
type Phase int

const (
	// Ran: the program or its tests ran and failed; also every run whose
	// output no tool's reading explains.
	Ran Phase = iota
	// NotBuilt: the code did not build: a compiler's error, go test's
	// "[build failed]" (a vet check included), a pytest collection error,
	// cargo's "could not compile".
	NotBuilt
	// NotSetUp: the tool did not get as far as building: no go.mod, no
	// such package or directory, a usage error of the tool.
	NotSetUp
)

var phaseNames = []string{"ran", "not built", "not set up"}

func (p Phase) String() string { return enum.Name(phaseNames, p, "Phase") }

// ToolReading is what a run's output says of its failure as the tools
// that printed it tell it (go test, go build, go vet, go run, cargo,
// pytest, make, a C or Java compiler): which tools, how far the run got,
// what failed by name, and the first message.
type ToolReading struct {
	// Tools names the tools whose output was recognized, outermost
	// first ("make", "go test").
	Tools []string
	Phase Phase
	// Failed names what failed, sorted: tests ("example.com/stats TestMax",
	// "tests::test_mx", "test_x.py::test_y"), a package that failed
	// without a failing test (a TestMain, a test binary that exited), and
	// make's failing targets ("make check").
	Failed []string
	// Message is the failure message: the first line of output of every
	// failing test that said something (go test), or the first failing
	// test's, or the first compiler error, or the tool's own complaint.
	Message string
	// tests is what go test's failing tests said (testMessages), ""
	// when none said anything.
	tests string
}

// Tool is the tools' names joined: "go test", "make, go test".
func (t ToolReading) Tool() string { return strings.Join(t.Tools, ", ") }

// readTools reads the failure of a run's output (standard error and
// standard output together) by the tools it recognizes, with go test's
// lines glued to the output before them on lines of their own (unglue).
// The zero reading means no tool was recognized.
func readTools(out string) ToolReading {
	if text, ok := fromGoTestJSON(out); ok {
		out = text
	}
	out = unglue(out)
	var t ToolReading
	add := func(r ToolReading) {
		if len(r.Tools) == 0 {
			return
		}
		t.Tools = append(t.Tools, r.Tools...)
		t.Failed = append(t.Failed, r.Failed...)
		if r.Message != "" && (t.Message == "" || r.Phase > t.Phase) {
			t.Message = r.Message
		}
		t.Phase = max(t.Phase, r.Phase)
		t.tests += r.tests
	}
	// The outer tools first: make's failing targets name what failed
	// whatever its recipes ran.
	add(readMake(out))
	switch {
	case goTestOutput(out):
		add(readGoTest(out))
	case reCargo.MatchString(out) || reCargoSetup.MatchString(out):
		add(readCargo(out))
	case rePytest.MatchString(out):
		add(readPytest(out))
	case reUnittest.MatchString(out):
		add(readUnittest(out))
	default:
		add(readGoBuild(out))
		add(readCompiler(out))
	}
	// Where no tool says more of the failure than that it failed (make's
	// own line, or no tool at all), the lines of the output that state a
	// failure are its message: a check that prints "FAIL: mean(3) = 0"
	// fails otherwise than one that prints two such lines.
	if t.Message == "" || t.Tool() == "make" {
		if m := failureLines(out); m != "" {
			t.Message = m
		}
	}
	slices.Sort(t.Failed)
	t.Failed = slices.Compact(t.Failed)
	return t
}

// reFailureLine is a line that states a failure in words a program or
// script prints when it fails: FAIL, ERROR, error:, fatal, assertion,
// exception, abort.
var reFailureLine = regexp.MustCompile(`(?i)(^|[^a-z])(fail(ed|ure|s)?|errors?|fatal|assert(ion)?(error)?|exception|abort(ed)?)([^a-z]|$)`)

// maxFailureLines bounds the lines failureLines keeps.
const maxFailureLines = 5

// failureLines returns the distinct lines of out that state a failure
// (reFailureLine), but make's own, in order, at most maxFailureLines,
// joined by "; "; "" when there are none.
func failureLines(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || reMakeFailed.MatchString(l) || !reFailureLine.MatchString(l) || slices.Contains(lines, l) {
			continue
		}
		lines = append(lines, l)
		if len(lines) == maxFailureLines {
			break
		}
	}
	return strings.Join(lines, "; ")
}

var (
	// go test's lines for a package's outcome: "ok  \tpkg\t0.1s",
	// "FAIL\tpkg\t0.1s", "FAIL\tpkg [build failed]".
	reGoPkg = regexp.MustCompile(`^(ok  |FAIL)\t(\S+)(?:\t\S+| \[(build|setup) failed\])?`)
	// A failing test: "--- FAIL: TestX (0.00s)", indented for subtests.
	reGoFail = regexp.MustCompile(`^(\s*)--- FAIL: (\S+) \(`)
	// go test -v's markers of the test whose output follows.
	reGoRun = regexp.MustCompile(`^=== (?:RUN|CONT|NAME|PAUSE)\s+(\S+)`)
	// A position in a Go file: "./stats.go:7:10: undefined: m".
	reGoPos = regexp.MustCompile(`^(?:vet: )?\.{0,2}/?[^\s:]*\.go:\d+(?::\d+)?: `)
	// The go command's own complaints: "go: go.mod file not found ...",
	// and those of go run and go build that name no file.
	reGoCmd = regexp.MustCompile(`(?m)^(?:go: (.*)|(?:package \S+ is not a main package|no Go files in \S+|package \S+ is not in std\b.*|directory \S+ outside (?:main module|modules listed in go.work).*|cannot find package \S+.*|stat \S+: directory not found|main module \(\S+\) does not contain package \S+))$`)
)

// fromGoTestJSON returns go test -json's output as go test -v prints it:
// the Output of its events, in order (test2json's "output" and the
// build's "build-output"). ok is false when out holds no such event.
func fromGoTestJSON(out string) (text string, ok bool) {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "{") || !strings.Contains(l, `"Action"`) {
			if !ok || strings.TrimSpace(l) == "" {
				continue
			}
			b.WriteString(l + "\n") // stderr between the events
			continue
		}
		var e struct{ Action, Output string }
		if json.Unmarshal([]byte(l), &e) != nil || e.Action == "" {
			continue
		}
		ok = true
		if e.Action == "output" || e.Action == "build-output" {
			b.WriteString(e.Output)
		}
	}
	return b.String(), ok
}

func goTestOutput(out string) bool {
	for _, l := range strings.Split(out, "\n") {
		if reGoPkg.MatchString(l) || reGoFail.MatchString(l) {
			return true
		}
	}
	return false
}

// readGoTest reads go test's output: the failing tests of each failing
// package, each test's first line of output, and whether a package did
// not build or set up ("[build failed]", "[setup failed]"; a failing vet
// check is a build failure). A test's output is the lines indented under
// its "--- FAIL" line, or with -v under its "=== RUN" line.
func readGoTest(out string) ToolReading {
	t := ToolReading{Tools: []string{"go test"}}
	type failed struct {
		name  string
		depth int
	}
	var pending []failed        // the failing tests of the package whose result is still to come
	msgs := map[string]string{} // a test's first line of output, by name
	qualified := map[string]string{}
	current := "" // the test whose output the lines are (-v)
	last := -1    // the "--- FAIL" line of pending whose output follows
	inBlock := false
	var blockErr []string // the lines of a "# pkg" block: a build's errors
	lastLine := ""        // the last line of the package's own output
	for _, l := range strings.Split(out, "\n") {
		trimmed := strings.TrimSpace(l)
		if m := reGoRun.FindStringSubmatch(l); m != nil {
			current, last, inBlock = m[1], -1, false
			continue
		}
		if m := reGoFail.FindStringSubmatch(l); m != nil {
			pending = append(pending, failed{name: m[2], depth: len(m[1])})
			last, inBlock = len(pending)-1, false
			continue
		}
		if m := reGoPkg.FindStringSubmatch(l); m != nil {
			pkg := m[2]
			if m[1] == "FAIL" {
				switch m[3] {
				case "build", "setup":
					ph := NotBuilt
					if m[3] == "setup" && (len(blockErr) == 0 || !reGoPos.MatchString(blockErr[0])) {
						ph = NotSetUp // not a syntax error in the code: the tool's
					}
					if ph > t.Phase || t.Message == "" {
						t.Message = firstOf(blockErr, l)
					}
					t.Phase = max(t.Phase, ph)
					t.Failed = append(t.Failed, pkg)
				default:
					for _, f := range pending {
						q := pkg + " " + f.name
						t.Failed = append(t.Failed, q)
						qualified[q] = f.name
					}
					if len(pending) == 0 {
						t.Failed = append(t.Failed, pkg)
						msgs[pkg], qualified[pkg] = lastLine, pkg
					}
				}
			}
			pending, current, last, inBlock, blockErr, lastLine = nil, "", -1, false, nil, ""
			continue
		}
		if strings.HasPrefix(l, "# ") {
			inBlock, blockErr = true, nil
			continue
		}
		if trimmed == "" {
			continue
		}
		if inBlock && !strings.HasPrefix(l, "\t") {
			blockErr = append(blockErr, trimmed)
			continue
		}
		if !strings.HasPrefix(l, "    ") || strings.HasPrefix(trimmed, "--- ") || strings.HasPrefix(trimmed, "=== ") {
			if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, " ") {
				lastLine = trimmed
			}
			continue
		}
		switch {
		case last >= 0 && len(l)-len(strings.TrimLeft(l, " ")) > pending[last].depth:
			if msgs[pending[last].name] == "" {
				msgs[pending[last].name] = trimmed
			}
		case current != "" && last < 0:
			if msgs[current] == "" {
				msgs[current] = trimmed
			}
		}
	}
	// A test binary run on its own (pkg.test -test.run, as wynot fuzz
	// runs it) ends with "FAIL" and no package line: its failing tests
	// are those still pending.
	if len(pending) > 0 && lastLine == "FAIL" {
		for _, f := range pending {
			t.Failed = append(t.Failed, f.name)
			qualified[f.name] = f.name
		}
	}
	// The message of tests that ran is every failing test's that said
	// something, in order of their names, each after its name when more
	// than one failed: a run in which one of them fails with another
	// message fails otherwise. A build or setup failure's error came
	// first.
	if t.Phase == Ran {
		slices.Sort(t.Failed)
		t.Message = testMessages(t.Failed, qualified, msgs)
		t.tests = t.Message
	}
	return t
}

// testMessages joins the first lines of output of the failing tests
// (failed, sorted) that said something, by "; ": the line alone when one
// test failed, else each after its test's name and ": ".
func testMessages(failed []string, qualified, msgs map[string]string) string {
	var said []string
	for _, f := range failed {
		if msgs[qualified[f]] != "" {
			said = append(said, f)
		}
	}
	if len(failed) == 1 && len(said) == 1 {
		return msgs[qualified[said[0]]]
	}
	parts := make([]string, len(said))
	for i, f := range said {
		name := testName(f)
		if name == "" {
			name = f
		}
		parts[i] = name + ": " + msgs[qualified[f]]
	}
	return strings.Join(parts, "; ")
}

// testName is a Go test's name in Failed without its package, or "".
func testName(failed string) string {
	if strings.HasPrefix(failed, "make ") || strings.HasPrefix(failed, "error ") {
		return ""
	}
	if i := strings.IndexByte(failed, ' '); i >= 0 {
		return failed[i+1:]
	}
	return ""
}

func firstOf(lines []string, otherwise string) string {
	if len(lines) > 0 {
		return lines[0]
	}
	return otherwise
}

// readGoBuild reads the go command's output other than go test's: a
// build's errors under a "# pkg" header (go build, go run), go vet's
// findings (positions in Go files with no header: what go vet found, not
// a build failure) and its failures to type-check ("vet: ..."), and the
// go command's own complaints ("go: ...").
func readGoBuild(out string) ToolReading {
	lines := strings.Split(out, "\n")
	header, vet := false, false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "# ["):
			vet = true // go vet's header of a package's findings
		case strings.HasPrefix(l, "# "):
			header = true
		case !reGoPos.MatchString(l):
		case strings.HasPrefix(l, "vet: "):
			return ToolReading{Tools: []string{"go vet"}, Phase: NotBuilt, Message: strings.TrimPrefix(l, "vet: ")}
		case header && !vet:
			return ToolReading{Tools: []string{"go build"}, Phase: NotBuilt, Message: l}
		default:
			return ToolReading{Tools: []string{"go vet"}, Phase: Ran, Message: vetFindings(lines)}
		}
	}
	for _, m := range reGoCmd.FindAllStringSubmatch(out, -1) {
		if strings.HasPrefix(m[1], "downloading ") || strings.HasPrefix(m[1], "finding ") || strings.HasPrefix(m[1], "extracting ") || strings.HasPrefix(m[1], "warning: ") {
			continue
		}
		return ToolReading{Tools: []string{"go"}, Phase: NotSetUp, Message: strings.TrimSpace(m[0])}
	}
	return ToolReading{}
}

// vetFindings is go vet's findings in lines, all of them, which go vet
// prints in no set order: sorted by their text with numbers and paths
// normalized (then as they are), joined by "; ". A finding more (a
// reduction that leaves a call's result unused) is another failure.
func vetFindings(lines []string) string {
	var fs []string
	for _, l := range lines {
		if reGoPos.MatchString(l) && !strings.HasPrefix(l, "vet: ") {
			fs = append(fs, l)
		}
	}
	slices.SortFunc(fs, func(a, b string) int {
		return cmp.Or(strings.Compare(Normalize(a), Normalize(b)), strings.Compare(a, b))
	})
	return strings.Join(slices.Compact(fs), "; ")
}

var (
	// cargo's and rustc's lines: a test run's, a compile error, the
	// status lines cargo prints as it builds and runs. A line that
	// begins with "error: " is not one of them by itself: git, and many
	// another program, fail with one too.
	reCargo = regexp.MustCompile("(?m)^(test result: FAILED|error\\[E\\d+\\]: |error: could not compile|---- \\S+ stdout ----|\\s+Running (unittests|tests/|`)|\\s+Compiling \\S+ v\\d|\\s+Finished .* target\\(s\\) in )")
	// cargo's own complaints before it builds anything: no manifest, no
	// such command, target or package.
	reCargoSetup = regexp.MustCompile("(?m)^error: (could not find `Cargo\\.toml`|failed to (parse|load) manifest|manifest path .* does not exist|no such command: |no (bin|example|test|bench) target named |package\\(s\\) .* not found in workspace|no matching package named |failed to select a version |a bin target must be available for `cargo run`|`cargo run` could not determine which binary to run|current package believes it's in a workspace)")
	// cargo starting a program or a test binary: what fails after it
	// is the program's.
	reCargoRunning = regexp.MustCompile(`(?m)^\s+Running `)
	reCargoFailed  = regexp.MustCompile(`(?m)^test (\S+) \.\.\. FAILED$`)
	reRustError    = regexp.MustCompile(`(?m)^error(?:\[E\d+\])?: (.*)$`)
	reRustSection  = regexp.MustCompile(`(?m)^---- (\S+) stdout ----$`)
	reRustPanicked = regexp.MustCompile(`(?m)^thread '[^']*'(?: \(\d+\))? panicked at [^\n]*:\n(.*)$`)
)

// readCargo reads cargo test's and cargo build's output: compile errors,
// and the failing tests with their panic messages.
func readCargo(out string) ToolReading {
	t := ToolReading{Tools: []string{"cargo"}}
	if strings.Contains(out, "error: could not compile") || strings.Contains(out, "error[E") {
		t.Phase = NotBuilt
		if m := reRustError.FindStringSubmatch(out); m != nil {
			t.Message = "error: " + m[1]
		}
		return t
	}
	for _, m := range reCargoFailed.FindAllStringSubmatch(out, -1) {
		t.Failed = append(t.Failed, m[1])
	}
	if loc := reRustSection.FindStringIndex(out); loc != nil {
		if m := reRustPanicked.FindStringSubmatch(out[loc[1]:]); m != nil {
			t.Message = strings.TrimSpace(m[1])
		}
	}
	// cargo's own error, when nothing ran: the failure is where it runs.
	// Once it runs a program, an error is the program's.
	if len(t.Failed) == 0 && !reCargoRunning.MatchString(out) {
		if m := reRustError.FindStringSubmatch(out); m != nil {
			t.Phase, t.Message = NotSetUp, "error: "+m[1]
		}
	}
	return t
}

var (
	rePytest           = regexp.MustCompile(`(?m)^(=+ (test session starts|FAILURES|ERRORS|short test summary info) =+|FAILED \S+::|ERROR \S+|!+ Interrupted: )`)
	rePytestFailed     = regexp.MustCompile(`(?m)^FAILED (\S+)(?: - (.*))?$`)
	rePytestError      = regexp.MustCompile(`(?m)^ERROR (\S+)(?: - (.*))?$`)
	rePytestE          = regexp.MustCompile(`(?m)^E\s+(\S.*)$`)
	rePytestNotFound   = regexp.MustCompile(`(?m)^ERROR: (.*)$`)
	rePytestCollecting = regexp.MustCompile(`(?m)^_+ ERROR collecting (\S+) _+$`)
)

// readPytest reads pytest's output: the failing tests of its short
// summary and their messages, collection errors (the code did not
// import), and its usage errors.
func readPytest(out string) ToolReading {
	t := ToolReading{Tools: []string{"pytest"}}
	if m := rePytestNotFound.FindStringSubmatch(out); m != nil {
		t.Phase, t.Message = NotSetUp, "ERROR: "+m[1]
		return t
	}
	if rePytestCollecting.MatchString(out) || strings.Contains(out, "error during collection") || strings.Contains(out, "errors during collection") {
		t.Phase = NotBuilt
		if m := rePytestE.FindAllStringSubmatch(out, -1); m != nil {
			t.Message = m[len(m)-1][1]
		} else if m := rePytestCollecting.FindStringSubmatch(out); m != nil {
			t.Message = "ERROR collecting " + m[1]
		}
		return t
	}
	for _, m := range rePytestFailed.FindAllStringSubmatch(out, -1) {
		t.Failed = append(t.Failed, m[1])
		if t.Message == "" {
			t.Message = m[2]
		}
	}
	for _, m := range rePytestError.FindAllStringSubmatch(out, -1) {
		t.Failed = append(t.Failed, "error "+m[1])
		if t.Message == "" {
			t.Message = m[2]
		}
	}
	return t
}

var (
	// Python's unittest: "Ran 2 tests in 0.000s".
	reUnittest = regexp.MustCompile(`(?m)^Ran \d+ tests? in \S+$`)
	// A failing test: "FAIL: test_x (module.Class.test_x)".
	reUnittestFailed = regexp.MustCompile(`(?m)^(FAIL|ERROR): (\S+)(?: \(([^)]*)\))?$`)
	// A Python exception's line, the last of a traceback.
	rePyLast = regexp.MustCompile(`(?m)^([A-Za-z_][\w.]*(?:Error|Exception|Failure)(?::.*)?)$`)
)

// readUnittest reads Python unittest's output: the failing tests and the
// exception of the first; a test module that could not be imported
// (unittest.loader._FailedTest) did not build.
func readUnittest(out string) ToolReading {
	t := ToolReading{Tools: []string{"unittest"}}
	blocks := strings.Split(out, "\n======================================================================\n")
	for _, b := range blocks[1:] {
		m := reUnittestFailed.FindStringSubmatch(b)
		if m == nil {
			continue
		}
		name := m[2]
		if m[3] != "" {
			name = m[3]
		}
		msg := ""
		if e := rePyLast.FindAllString(b, -1); e != nil {
			msg = e[len(e)-1]
		}
		if strings.Contains(name, "unittest.loader.") || strings.Contains(name, "ModuleImportFailure") {
			// The module's import failed: its last exception says why.
			t.Phase, t.Message = NotBuilt, msg
			continue
		}
		t.Failed = append(t.Failed, name)
		if t.Message == "" && t.Phase == Ran {
			t.Message = msg
		}
	}
	return t
}

var (
	// GNU make's failing recipe: "make: *** [Makefile:5: check] Error 1",
	// "make[1]: *** [check] Error 2".
	reMakeFailed = regexp.MustCompile(`(?m)^g?make(?:\[\d+\])?: \*\*\* \[(?:[^\]:]*:\d+: )?([^\]]+)\] (?:Error \d+|Segmentation fault.*|Killed.*)`)
	// make's own complaints: "make: *** No rule to make target 'check'.  Stop."
	reMakeStop = regexp.MustCompile(`(?m)^g?make(?:\[\d+\])?: \*\*\* (.*)\.  Stop\.$`)
)

// readMake reads make's output: the targets whose recipes failed, and
// make's own complaints (no such target, no makefile).
func readMake(out string) ToolReading {
	if m := reMakeStop.FindStringSubmatch(out); m != nil {
		return ToolReading{Tools: []string{"make"}, Phase: NotSetUp, Message: "make: " + m[1]}
	}
	ms := reMakeFailed.FindAllStringSubmatch(out, -1)
	if ms == nil {
		return ToolReading{}
	}
	t := ToolReading{Tools: []string{"make"}, Message: strings.TrimSpace(ms[0][0])}
	for _, m := range ms {
		t.Failed = append(t.Failed, "make "+m[1])
	}
	return t
}

var (
	// A compiler's error: "x.c:2:77: error: ‘m’ undeclared", javac's
	// "X.java:3: error: ...", tsc's "x.ts(3,5): error TS2304: ...".
	reCompilerError = regexp.MustCompile(`(?m)^\S+?(?::\d+(?::\d+)?:|\(\d+,\d+\):) (?:fatal )?error(?: TS\d+)?: .*$`)
	// A link error: "collect2: error: ld returned 1 exit status".
	reLinkError = regexp.MustCompile(`(?m)^(?:collect2|ld|/usr/bin/ld)(?:\.\S+)?: (?:error: )?.*(?:undefined reference|ld returned \d+ exit status|cannot find -l).*$`)
)

// readCompiler reads a C, C++, Java or TypeScript compiler's errors.
func readCompiler(out string) ToolReading {
	if m := reCompilerError.FindString(out); m != "" {
		return ToolReading{Tools: []string{"compiler"}, Phase: NotBuilt, Message: strings.TrimSpace(m)}
	}
	if m := reLinkError.FindString(out); m != "" {
		return ToolReading{Tools: []string{"linker"}, Phase: NotBuilt, Message: strings.TrimSpace(m)}
	}
	return ToolReading{}
}

var (
	// A go test line as it ends a line another line was glued to, for
	// unglue: a failing test with its duration, a package's outcome with
	// its duration or "[build failed]", a -v marker.
	reGluedGoTest = regexp.MustCompile(`^(?:--- FAIL: \S+ \(\d+(?:\.\d+)?s\)|(?:ok  |FAIL)\t\S+(?:\t(?:\d+(?:\.\d+)?s|\(cached\))| \[(?:build|setup) failed\])|=== RUN   \S+)$`)
	// The line that follows a Go panic's message within a few lines: its
	// goroutine's trace.
	reGoroutine = regexp.MustCompile(`(?m)^goroutine \d+ \[`)
)

// gluedMax bounds the length of a line unglue puts on a line of its own.
const gluedMax = 2048

// gluedMarkers are the starts of the lines of go test and the Go
// runtime that unglue looks for inside a line.
var gluedMarkers = []string{"--- FAIL: ", "FAIL\t", "ok  \t", "=== RUN   ", "panic: ", "fatal error: "}

// unglue puts on a line of its own a line of go test or of the Go
// runtime that the output before it did not end with a newline for
// ("50%--- FAIL: TestX (0.00s)"), where that is unambiguous: the rest
// of the line is exactly such a line (a failing test with its duration,
// a package's outcome, a -v marker), or a panic's or fatal error's
// message whose goroutine trace follows within the next lines. Any
// other line is left as it is, and so is a go test -json event.
func unglue(out string) string {
	if !slices.ContainsFunc(gluedMarkers, func(m string) bool { return strings.Contains(out, m) }) {
		return out
	}
	var b strings.Builder
	changed := false
	rest := out
	for rest != "" {
		l, after, nl := strings.Cut(rest, "\n")
		// go test -json's events hold go test's lines escaped: they are
		// read once their text is (readTools).
		if json := strings.HasPrefix(l, "{") && strings.Contains(l, `"Action"`); !json {
			if at := gluedAt(l, after); at > 0 {
				b.WriteString(l[:at])
				b.WriteByte('\n')
				l, changed = l[at:], true
			}
		}
		b.WriteString(l)
		if nl {
			b.WriteByte('\n')
		}
		rest = after
	}
	if !changed {
		return out
	}
	return b.String()
}

// gluedAt is where in line l, after the first byte, a go test or Go
// runtime line starts that unglue puts on a line of its own, or 0; next
// is the output after l.
func gluedAt(l, next string) int {
	best := 0
	// The glued line is the end of l: only its last gluedMax bytes are
	// looked at, so that a long line costs no more than a short one.
	start := max(1, len(l)-gluedMax)
	for _, m := range gluedMarkers {
		for from := start; from < len(l); {
			i := strings.Index(l[from:], m)
			if i < 0 {
				break
			}
			at := from + i
			if best > 0 && at >= best {
				break
			}
			if gluedLine(l[at:], next) {
				best = at
				break
			}
			from = at + 1
		}
	}
	return best
}

// gluedLine reports whether l, found inside a line, is a line of go test
// or of the Go runtime (see unglue); next is the output after it.
func gluedLine(l, next string) bool {
	if reGluedGoTest.MatchString(l) {
		return true
	}
	if !strings.HasPrefix(l, "panic: ") && !strings.HasPrefix(l, "fatal error: ") {
		return false
	}
	// The trace follows within a few lines: "[recovered]" and the
	// panic again, an empty line, "goroutine 1 [running]:".
	lines := strings.SplitN(next, "\n", 6)
	return reGoroutine.MatchString(strings.Join(lines[:min(len(lines), 5)], "\n"))
}
