package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/wynot/wynot/internal/fixtures"
)

// The cases of the typed section: each writes a small repository or
// input with a planted defect into the directory the user types wynot
// in, and names the command line typed there.

func typedCases() []typedCase {
	return []typedCase{
		{
			name:    "git-go-test",
			about:   "a Go module, 20 commits; commit 12 rewrites `Max` (`m := xs[0]; for _, x := range xs[1:]` becomes `m := 0; for _, x := range xs`) and moves `Min`'s loop into a new helper, so parts of it do not build; `TestMaxNegative` fails.",
			args:    []string{"changes", "--git", "v1", "v2", "--", "go", "test", "./..."},
			setup:   maxHistory,
			sig:     goTestSig,
			want:    "--- FAIL: TestMaxNegative",
			culprit: regexp.MustCompile(`stats: Max and Min share their loop`),
			defect:  regexp.MustCompile(`(?m)^\+\s*m := 0\s*$`),
		},
		{
			name:    "git-go-test-run",
			about:   "a Go module of two packages, 16 commits; commit 7 makes `parse.Fields` strip quotes instead of spaces (through a renamed helper); commit 11 breaks a test of another package, which `-run TestFields ./parse` leaves out.",
			args:    []string{"changes", "--git", "v1", "v2", "--", "go", "test", "-run", "TestFields", "./parse"},
			setup:   fieldsHistory,
			sig:     goTestSig,
			want:    "--- FAIL: TestFields",
			culprit: regexp.MustCompile(`parse: quoted fields`),
			defect:  regexp.MustCompile("(?m)^\\+.*strings\\.Trim\\(s, `\"`\\)"),
		},
		{
			name:   "dirs-go-test",
			about:  "two directories of a Go module: the new one renames the field `Qty` to `Quantity` in 5 files (no part builds without the others) and sums over `items[1:]` in `Total`; `TestTotal` fails.",
			args:   []string{"changes", "old", "new", "--", "go", "test", "./..."},
			setup:  inventoryDirs,
			sig:    goTestSig,
			want:   "--- FAIL: TestTotal",
			defect: regexp.MustCompile(`(?m)^\+.*range items\[1:\]`),
		},
		{
			name:    "git-go-vet",
			about:   "a Go module, 14 commits; commit 6 prints a percentage (a string) with `%d`: `go vet` reports the Printf format; parts of the commit leave a name undefined, which vet reports too.",
			args:    []string{"changes", "--git", "v1", "v2", "--", "go", "vet", "./..."},
			setup:   tallyHistory,
			sig:     vetSig,
			want:    "fmt.Printf format %d has arg share of wrong type string",
			culprit: regexp.MustCompile(`tally: print each word's share`),
			defect:  regexp.MustCompile(`(?m)^\+.*Printf\(.*%d %d.*share`),
		},
		{
			name:    "git-make-check",
			about:   "a C program with a Makefile (`calc` builds it, `check` runs its self-test), 15 commits; commit 9 renames `avg` to `mean` in three files and starts its loop at 1; a build break and the failing check both make `make` exit 2.",
			args:    []string{"changes", "--git", "v1", "v2", "--", "make", "check"},
			setup:   calcHistory,
			sig:     makeCheckSig,
			want:    "FAIL: mean(N, N, N) = N, want N; FAIL: mean(N) = N, want N",
			culprit: regexp.MustCompile(`calc: avg is mean now`),
			defect:  regexp.MustCompile(`(?m)^\+.*i = 1;`),
		},
		{
			name:    "git-sh-build-grep",
			about:   "a Go program, 12 commits; commit 8 builds its greeting from a format without the comma (with an import and a constant, so parts of it do not build); the test builds and greps the output, so a build break also exits 1.",
			args:    []string{"changes", "--git", "v1", "v2", "--", "sh", "-c", `go build -o prog ./cmd/greet && ./prog | grep -q "Hello, World"`},
			setup:   greetHistory,
			verify:  []string{"sh", "-c", "go build -o prog ./cmd/greet && ./prog"},
			sig:     greetSig,
			want:    "prints Hello World!",
			culprit: regexp.MustCompile(`greet: the greeting from a format`),
			defect:  regexp.MustCompile(`(?m)^\+.*"Hello %s!"`),
		},
		{
			name:   "dirs-python-unittest",
			about:  "two directories of a Python module: the new one renames `count_words` to `word_count` in three files (a part alone fails to import) and splits on `\" \"`; `test_count_double_space` fails.",
			args:   []string{"changes", "old", "new", "--", "python3", "-m", "unittest"},
			setup:  textstatsDirs,
			sig:    unittestSig,
			want:   "FAIL: test_count_double_space",
			defect: regexp.MustCompile(`(?m)^\+.*split\(" "\)`),
		},
		{
			name:    "git-go-subtest",
			about:   "a Go module, 12 commits; commit 6 reads `size.Parse`'s units from a table (through a renamed helper) in which `GB` shifts by 20; commit 10 breaks another subtest, which `-run TestParse/giga` leaves out; the parent test fails with its subtest.",
			args:    []string{"changes", "--git", "v1", "v2", "--", "go", "test", "-run", "TestParse/giga", "./size"},
			setup:   sizeHistory,
			sig:     goTestSig,
			want:    "--- FAIL: TestParse, --- FAIL: TestParse/giga",
			culprit: regexp.MustCompile(`size: units from a table`),
			defect:  regexp.MustCompile(`(?m)^\+.*"GB": 20\b`),
		},
		{
			name:     "git-cargo-test",
			about:    "a Rust library crate (no dependencies; `target/` built, and ignored by `.gitignore`), 14 commits; commit 8 moves `max`'s and `min`'s loops into a helper `extreme` and starts `max`'s at 0 instead of `xs[0]`, so parts of it do not compile (cargo test exits 101 for a compile error as for a failing test); `tests::max_negative` fails.",
			args:     []string{"changes", "--git", "v1", "v2", "--", "cargo", "test"},
			setup:    cargoStatsHistory,
			requires: []string{"cargo"},
			sig:      cargoTestSig,
			want:     "failed: tests::max_negative",
			culprit:  regexp.MustCompile(`stats: max and min share their loop`),
			defect:   regexp.MustCompile(`(?m)^\+\s*extreme\(xs, 0,.*$`),
		},
		{
			name:     "dirs-pytest",
			about:    "two directories of a Python package with a `pyproject.toml`: the new one renames `net_price` to `discounted` in two modules (a part alone fails to import: a collection error) and drops its rounding, and renders invoices otherwise, with the test to match; `test_total_rounds_half_up` fails. Typed as `pytest -q`: `python3` on this machine's $PATH is a Python without pytest.",
			args:     []string{"changes", "old", "new", "--", "pytest", "-q"},
			setup:    shopDirs,
			requires: []string{"pytest"},
			sig:      pytestSig,
			want:     "FAILED tests/test_invoice.py::test_total_rounds_half_up",
			defect:   regexp.MustCompile(`(?m)^\+\s*return gross \* \(100 - percent\) // 100\s*$`),
		},
		{
			name:     "git-sh-cc",
			about:    "a C function with its test program, 12 commits; commit 8 renames `parse_duration` to `duration_seconds` in three files and reads numbers with `strtol`, which takes a sign: `-5m` is -300 seconds; the test compiles and runs in one shell line, so a compile or link error exits 1 as the failing test does.",
			args:     []string{"changes", "--git", "v1", "v2", "--", "sh", "-c", "cc -o t t.c dur.c && ./t"},
			setup:    durHistory,
			requires: []string{"cc"},
			sig:      ccCheckSig,
			want:     `FAIL: duration_seconds("-Nm") = -N, want -N`,
			culprit:  regexp.MustCompile(`dur: parse_duration is duration_seconds`),
			defect:   regexp.MustCompile(`(?m)^\+.*strtol\(.*$`),
		},
		{
			name:    "reduce-go-run-stdin",
			about:   "a Go module whose `cmd/kvcat` reads a 117-line config on standard input and panics on `listen = localhost` (no port); typed in the module.",
			args:    []string{"reduce", "-o", "g.out", "g.conf", "--", "go", "run", "./cmd/kvcat"},
			setup:   kvcatModule,
			sig:     goPanicSig,
			want:    "panic: runtime error: index out of range [N] with length N",
			trigger: regexp.MustCompile(`listen`),
		},
		{
			name:    "reduce-go-run-path",
			about:   "a Go module whose `cmd/weights` reads the file named by its argument and divides by each weight; one of 80 lines has weight 0; typed in the module.",
			args:    []string{"reduce", "-o", "w.out", "weights.txt", "--", "go", "run", "./cmd/weights", "{}"},
			setup:   weightsModule,
			sig:     goPanicSig,
			want:    "panic: runtime error: integer divide by zero",
			trigger: regexp.MustCompile(`(?m):\s*0+\s*$`),
		},
		{
			name:    "reduce-sh-grep",
			about:   "a 300-line server log with one `OutOfMemoryError`; the test is a grep whose failure is its exit status only.",
			args:    []string{"reduce", "-o", "n.out", "server.log", "--", "sh", "-c", "grep -q OutOfMemoryError {} && exit 1 || exit 0"},
			setup:   serverLog,
			sig:     exitSig,
			want:    "exit 1",
			trigger: regexp.MustCompile(`OutOfMemoryError`),
		},
		{
			name:    "reduce-sh-pipeline",
			about:   "`summarize` (a Python script on $PATH) crashes on a price written with a decimal comma in a sales file of 60 rows; the test pipes its output to `grep -q`, so any failure, also a missing header, exits 1; only standard error tells them apart.",
			args:    []string{"reduce", "-o", "s.out", "sales.txt", "--", "sh", "-c", `summarize < {} | grep -q "^total"`},
			setup:   salesFile,
			path:    "bin",
			verify:  []string{"summarize"},
			sig:     pythonSig,
			want:    "ValueError: could not convert string to float: 'N,N'",
			trigger: regexp.MustCompile(`\d,\d`),
		},
		{
			name:    "reduce-python-oneliner",
			about:   "a Python one-liner sums quantity × price over a JSON order of 30 items read on standard input; one price is a string, which raises a TypeError; a broken JSON candidate raises another exception.",
			args:    []string{"reduce", "-o", "o.out", "order.json", "--", "python3", "-c", `import json,sys; d=json.load(sys.stdin); print(sum(i["qty"]*i["price"] for i in d["items"]))`},
			setup:   orderFile,
			sig:     pythonSig,
			want:    "TypeError: unsupported operand type(s) for +: 'float' and 'str'",
			trigger: regexp.MustCompile(`"price":\s*"`),
		},
		{
			name:  "reduce-relative-script",
			about: "a repository with `scripts/t.sh`, which runs `python3 tools/checkports.py` (a path relative to the repository) on standard input; the checker raises on a port above 65535 in a config of 50 services.",
			args:  []string{"reduce", "-o", "p.out", "ports.conf", "--", "./scripts/t.sh"},
			setup: portsRepo,
			sig:   pythonSig,
			want:  "ValueError: port out of range: N",
			// The failure is the checker's ValueError for a port out of
			// range, numbers aside: 0 is out of range as 99999 is.
			trigger: regexp.MustCompile(`(?m)=\s*(0+|\d{6,}|6553[6-9]|655[4-9]\d|65[6-9]\d\d|6[6-9]\d{3}|[7-9]\d{4})\s*$`),
		},
		{
			name:     "reduce-cargo-run",
			about:    "a Rust program (run by `cargo run`, typed in its crate) totals an order of 60 lines read on standard input and panics (`expect`) on a quantity of `-4`; a candidate without the header or with a line of other than three fields exits 2, an empty quantity panics with another message.",
			args:     []string{"reduce", "-o", "o.out", "order.csv", "--", "cargo", "run", "-q"},
			setup:    orderCrate,
			requires: []string{"cargo"},
			sig:      rustPanicSig,
			want:     "panicked: quantity is not a number: ParseIntError { kind: InvalidDigit }",
			trigger:  regexp.MustCompile(`(?m)^[^,\n]*,\s*-`),
		},
		{
			name:    "reduce-false",
			about:   "`false` as the test: it fails whatever the input, so there is no answer to give.",
			args:    []string{"reduce", "-o", "f.out", "m.conf", "--", "false"},
			setup:   plainConf,
			refuse:  true,
			refusal: alwaysFails,
		},
		{
			name:    "reduce-test-always1",
			about:   "`--test always1.sh`, a script that exits 1 whatever the input (the failure to a user who reads exit 1 as failing; a pass by C-Reduce's convention, wynot's default for --test).",
			args:    []string{"reduce", "--test", "always1.sh", "m.conf"},
			setup:   plainConf,
			refuse:  true,
			refusal: regexp.MustCompile(`(?i)convention|always|any input|every input|whatever|empty input|regardless|does not depend`),
		},
		{
			name:    "reduce-test-always0",
			about:   "`--test interesting.sh`, a C-Reduce style script that exits 0 (\"interesting\") whatever the input.",
			args:    []string{"reduce", "--test", "interesting.sh", "m.conf"},
			setup:   plainConf,
			refuse:  true,
			refusal: alwaysFails,
		},
	}
}

// alwaysFails is what a clear refusal of a test that fails whatever the
// input says.
var alwaysFails = regexp.MustCompile(`(?i)always|any input|every input|whatever|empty input|regardless|does not depend|not on the input`)

// typedFixture names what a case's test is checked on: the new (failing)
// version and the old one the patch applies to: git revisions of the
// case's repository, or directories in it.
type typedFixture struct {
	git      bool
	old, new string
}

// history makes dir a git repository: a first commit of base, tagged
// v1, then n commits, the k-th writing files(k), the last tagged v2. It
// returns the parent of the commit whose subject is culprit, and v2.
func history(dir string, base map[string]string, n int, files func(k int) (string, map[string]string), culprit string) (typedFixture, error) {
	if _, err := fixtures.Git(dir, "init", "-q", "-b", "main"); err != nil {
		return typedFixture{}, err
	}
	prev, err := fixtures.Commit(dir, "initial version", base)
	if err != nil {
		return typedFixture{}, err
	}
	if _, err := fixtures.Git(dir, "tag", "v1"); err != nil {
		return typedFixture{}, err
	}
	fx := typedFixture{git: true, new: "v2"}
	for k := 1; k <= n; k++ {
		msg, fs := files(k)
		h, err := fixtures.Commit(dir, msg, fs)
		if err != nil {
			return typedFixture{}, err
		}
		if msg == culprit {
			fx.old = prev
		}
		prev = h
	}
	if fx.old == "" {
		return typedFixture{}, fmt.Errorf("no commit %q", culprit)
	}
	_, err = fixtures.Git(dir, "tag", "v2")
	return fx, err
}

// readmeLine is a commit that only adds a line to README.md.
func readmeLine(readme *string, k int) (string, map[string]string) {
	*readme += fmt.Sprintf("\nNote %d: see the changes of version 0.%d.\n", k, k)
	return fmt.Sprintf("README: note %d", k), map[string]string{"README.md": *readme}
}

const statsOld = `// Package stats computes simple statistics of integer samples.
package stats

// Max returns the largest element of xs, which must not be empty.
func Max(xs []int) int {
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

// Min returns the smallest element of xs, which must not be empty.
func Min(xs []int) int {
	m := xs[0]
	for _, x := range xs[1:] {
		if x < m {
			m = x
		}
	}
	return m
}

// Sum returns the sum of xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
`

const statsNew = `// Package stats computes simple statistics of integer samples.
package stats

// Max returns the largest element of xs.
func Max(xs []int) int {
	m := 0
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	return m
}

// Min returns the smallest element of xs, which must not be empty.
func Min(xs []int) int {
	return extreme(xs, func(a, b int) bool { return a < b })
}

// extreme returns the element of xs that is better than all others.
func extreme(xs []int, better func(a, b int) bool) int {
	m := xs[0]
	for _, x := range xs[1:] {
		if better(x, m) {
			m = x
		}
	}
	return m
}

// Sum returns the sum of xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
`

// maxHistory is the example: Max rewritten wrongly in a commit
// that also moves Min's loop into a helper.
func maxHistory(dir string) (typedFixture, error) {
	readme := "# stats\n\nSimple statistics of integer samples.\n"
	base := map[string]string{
		"go.mod":         "module example.com/stats\n\ngo 1.22\n",
		"README.md":      readme,
		"stats/stats.go": statsOld,
		"stats/stats_test.go": `package stats

import "testing"

func TestMax(t *testing.T) {
	if got := Max([]int{3, 9, 4}); got != 9 {
		t.Errorf("Max(3, 9, 4) = %d, want 9", got)
	}
}

func TestMaxNegative(t *testing.T) {
	if got := Max([]int{-3, -1, -2}); got != -1 {
		t.Errorf("Max(-3, -1, -2) = %d, want -1", got)
	}
}

func TestMin(t *testing.T) {
	if got := Min([]int{3, -9, 4}); got != -9 {
		t.Errorf("Min(3, -9, 4) = %d, want -9", got)
	}
}

func TestSum(t *testing.T) {
	if got := Sum([]int{3, -9, 4}); got != -2 {
		t.Errorf("Sum(3, -9, 4) = %d, want -2", got)
	}
}
`,
		"cmd/stats/main.go": statsMain(0),
	}
	return history(dir, base, 20, func(k int) (string, map[string]string) {
		switch {
		case k == 12:
			return "stats: Max and Min share their loop", map[string]string{"stats/stats.go": statsNew}
		case k%3 == 0:
			return readmeLine(&readme, k)
		case k%3 == 1:
			return fmt.Sprintf("stats: Scale%d", k), map[string]string{
				fmt.Sprintf("stats/scale%d.go", k):      fmt.Sprintf("package stats\n\n// Scale%d multiplies each element of xs by %d.\nfunc Scale%d(xs []int) []int {\n\tout := make([]int, len(xs))\n\tfor i, x := range xs {\n\t\tout[i] = x * %d\n\t}\n\treturn out\n}\n", k, k, k, k),
				fmt.Sprintf("stats/scale%d_test.go", k): fmt.Sprintf("package stats\n\nimport \"testing\"\n\nfunc TestScale%d(t *testing.T) {\n\tif got := Scale%d([]int{1, -2}); got[0] != %d || got[1] != %d {\n\t\tt.Errorf(\"Scale%d = %%v\", got)\n\t}\n}\n", k, k, k, -2*k, k),
			}
		default:
			return fmt.Sprintf("cmd/stats: version 0.%d", k), map[string]string{"cmd/stats/main.go": statsMain(k)}
		}
	}, "stats: Max and Min share their loop")
}

func statsMain(k int) string {
	return fmt.Sprintf(`// Command stats prints the largest, smallest and total of its arguments.
package main

import (
	"fmt"
	"os"
	"strconv"

	"example.com/stats/stats"
)

const version = "0.%d"

func main() {
	var xs []int
	for _, a := range os.Args[1:] {
		x, err := strconv.Atoi(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, "stats:", err)
			os.Exit(2)
		}
		xs = append(xs, x)
	}
	if len(xs) == 0 {
		fmt.Println("stats", version)
		return
	}
	fmt.Println(stats.Max(xs), stats.Min(xs), stats.Sum(xs))
}
`, k)
}

// fieldsHistory: parse.Fields loses its trimming in commit 7 (a renamed
// helper); commit 11 breaks report's test, which the typed command does
// not run.
func fieldsHistory(dir string) (typedFixture, error) {
	parse := func(helper, body string) string {
		return fmt.Sprintf(`// Package parse reads lines of comma-separated values.
package parse

import "strings"

// Fields splits a line of comma-separated values and cleans each field.
func Fields(line string) []string {
	parts := strings.Split(line, ",")
	for i, p := range parts {
		parts[i] = %s(p)
	}
	return parts
}

%s
`, helper, body)
	}
	report := func(scale string) string {
		return fmt.Sprintf(`// Package report totals the second column of CSV lines.
package report

import (
	"strconv"

	"example.com/csvx/parse"
)

// Total returns the sum of the second field of each line.
func Total(lines []string) int {
	t := 0
	for _, l := range lines {
		f := parse.Fields(l)
		if len(f) < 2 {
			continue
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		t += n%s
	}
	return t
}
`, scale)
	}
	readme := "# csvx\n\nComma-separated values.\n"
	base := map[string]string{
		"go.mod":           "module example.com/csvx\n\ngo 1.22\n",
		"README.md":        readme,
		"parse/parse.go":   parse("trim", "// trim removes the spaces around s.\nfunc trim(s string) string { return strings.TrimSpace(s) }"),
		"report/report.go": report(""),
		"parse/parse_test.go": `package parse

import (
	"reflect"
	"testing"
)

func TestFields(t *testing.T) {
	got := Fields(" a , b,c ")
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Fields = %q, want %q", got, want)
	}
}

func TestFieldsEmpty(t *testing.T) {
	if got := Fields(""); len(got) != 1 || got[0] != "" {
		t.Errorf("Fields(\"\") = %q", got)
	}
}
`,
		"report/report_test.go": `package report

import "testing"

func TestTotal(t *testing.T) {
	if got := Total([]string{"a, 2", "b, 3", "c"}); got != 5 {
		t.Errorf("Total = %d, want 5", got)
	}
}
`,
	}
	return history(dir, base, 16, func(k int) (string, map[string]string) {
		switch {
		case k == 7:
			return "parse: quoted fields", map[string]string{"parse/parse.go": parse("clean", "// clean removes the quotes around s.\nfunc clean(s string) string { return strings.Trim(s, `\"`) }")}
		case k == 11:
			return "report: totals in hundreds", map[string]string{"report/report.go": report(" * 100")}
		case k%2 == 0:
			return readmeLine(&readme, k)
		default:
			return fmt.Sprintf("parse: Count%d", k), map[string]string{
				fmt.Sprintf("parse/count%d.go", k): fmt.Sprintf("package parse\n\n// Count%d returns the number of fields of line plus %d.\nfunc Count%d(line string) int { return len(Fields(line)) + %d }\n", k, k, k, k),
			}
		}
	}, "parse: quoted fields")
}

// inventoryDirs: old/ and new/ of a module; new renames a field across
// five files and sums items[1:] (a line of its own: no single line
// edit of it alone changes what Total does without breaking the build).
func inventoryDirs(dir string) (typedFixture, error) {
	version := func(qty, total string) map[string]string {
		r := strings.NewReplacer("QTY", qty)
		return map[string]string{
			"go.mod": "module example.com/inv\n\ngo 1.22\n",
			"inv/item.go": r.Replace(`// Package inv keeps an inventory.
package inv

// Item is a line of an inventory.
type Item struct {
	Name  string
	QTY   int
	Price int // in cents
}

// Value is the value of the item's pieces in cents.
func (it Item) Value() int { return it.QTY * it.Price }
`),
			"inv/total.go": r.Replace(`package inv

// Total returns the value of items in cents.
func Total(items []Item) int {
	t := 0
	for _, it := range ` + total + ` {
		t += it.Value()
	}
	return t
}

// Count returns the number of pieces of items.
func Count(items []Item) int {
	n := 0
	for _, it := range items {
		n += it.QTY
	}
	return n
}
`),
			"inv/format.go": r.Replace(`package inv

import "fmt"

// Format prints an item as a line of a bill.
func Format(it Item) string {
	return fmt.Sprintf("%-12s %4d × %6.2f", it.Name, it.QTY, float64(it.Price)/100)
}
`),
			"inv/inv_test.go": r.Replace(`package inv

import "testing"

var items = []Item{{Name: "nails", QTY: 100, Price: 2}, {Name: "hammer", QTY: 1, Price: 1500}, {Name: "saw", QTY: 2, Price: 2200}}

func TestTotal(t *testing.T) {
	if got := Total(items); got != 6100 {
		t.Errorf("Total = %d, want 6100", got)
	}
}

func TestCount(t *testing.T) {
	if got := Count(items); got != 103 {
		t.Errorf("Count = %d, want 103", got)
	}
}

func TestFormat(t *testing.T) {
	if got, want := Format(items[1]), "hammer          1 ×  15.00"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}
`),
			"cmd/inv/main.go": r.Replace(`// Command inv prints a bill of a few items.
package main

import (
	"fmt"

	"example.com/inv/inv"
)

func main() {
	items := []inv.Item{{Name: "nails", QTY: 100, Price: 2}, {Name: "hammer", QTY: 1, Price: 1500}}
	for _, it := range items {
		fmt.Println(inv.Format(it))
	}
	fmt.Printf("%d pieces, %.2f in all\n", inv.Count(items), float64(inv.Total(items))/100)
}
`),
		}
	}
	if err := fixtures.WriteFiles(filepath.Join(dir, "old"), version("Qty", "items")); err != nil {
		return typedFixture{}, err
	}
	return typedFixture{old: "old", new: "new"}, fixtures.WriteFiles(filepath.Join(dir, "new"), version("Quantity", "items[1:]"))
}

// tallyHistory: commit 6 prints a string with %d.
func tallyHistory(dir string) (typedFixture, error) {
	main := func(k int, share bool) string {
		loop := "\tfor _, w := range words {\n\t\tfmt.Printf(\"%-20s %d\\n\", w, counts[w])\n\t}\n"
		if share {
			loop = "\ttotal := 0\n\tfor _, n := range counts {\n\t\ttotal += n\n\t}\n\tfor _, w := range words {\n\t\tshare := fmt.Sprintf(\"%.1f%%\", 100*float64(counts[w])/float64(total))\n\t\tfmt.Printf(\"%-20s %d %d\\n\", w, counts[w], share)\n\t}\n"
		}
		return fmt.Sprintf(`// Command tally counts the words of its standard input.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

const version = "0.%d"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-version" {
		fmt.Println("tally", version)
		return
	}
	counts := map[string]int{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		for _, w := range strings.Fields(sc.Text()) {
			counts[strings.ToLower(w)]++
		}
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	sort.Strings(words)
%s}
`, k, loop)
	}
	readme := "# tally\n\nCounts words.\n"
	base := map[string]string{
		"go.mod":                "module example.com/tally\n\ngo 1.22\n",
		"README.md":             readme,
		"cmd/tally/main.go":     main(0, false),
		"internal/text/text.go": "// Package text holds helpers for words.\npackage text\n\n// Words is the number of words seen.\nvar Words int\n",
	}
	shared := false
	return history(dir, base, 14, func(k int) (string, map[string]string) {
		switch {
		case k == 6:
			shared = true
			return "tally: print each word's share", map[string]string{"cmd/tally/main.go": main(k, true)}
		case k%3 == 0:
			return readmeLine(&readme, k)
		case k%3 == 1:
			return fmt.Sprintf("text: Upper%d", k), map[string]string{
				fmt.Sprintf("internal/text/upper%d.go", k): fmt.Sprintf("package text\n\nimport \"fmt\"\n\n// Upper%d formats n with %d digits.\nfunc Upper%d(n int) string { return fmt.Sprintf(\"%%0%dd\", n) }\n", k, k, k, k),
			}
		default:
			return fmt.Sprintf("tally: version 0.%d", k), map[string]string{"cmd/tally/main.go": main(k, shared)}
		}
	}, "tally: print each word's share")
}

// calcHistory: a C program with a Makefile; commit 9 renames avg to mean
// in three files and starts the loop at 1.
func calcHistory(dir string) (typedFixture, error) {
	header := func(name string, k int) string {
		return fmt.Sprintf("#ifndef CALC_H\n#define CALC_H\n\n#define CALC_VERSION \"0.%d\"\n\nint %s(const int *xs, int n);\nint largest(const int *xs, int n);\n\n#endif\n", k, name)
	}
	calc := func(k int, renamed bool) string {
		avg := "/* avg returns the mean of the n numbers xs, rounded down. */\nint avg(const int *xs, int n)\n{\n\tint s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += xs[i];\n\treturn s / n;\n}\n"
		if renamed {
			avg = "/* mean returns the mean of the n numbers xs, rounded down. */\nint mean(const int *xs, int n)\n{\n\tlong total = 0;\n\tfor (int i = 1; i < n; i++)\n\t\ttotal += xs[i];\n\treturn total / n;\n}\n"
		}
		return fmt.Sprintf("#include \"calc.h\"\n\n/* calc %d */\n\n%s\n/* largest returns the largest of the n numbers xs. */\nint largest(const int *xs, int n)\n{\n\tint m = xs[0];\n\tfor (int i = 1; i < n; i++)\n\t\tif (xs[i] > m)\n\t\t\tm = xs[i];\n\treturn m;\n}\n", k, avg)
	}
	mainC := func(name string) string {
		return strings.ReplaceAll(`#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc.h"

static int failed;

static void expect(const char *what, int got, int want)
{
	if (got != want) {
		printf("FAIL: %s = %d, want %d\n", what, got, want);
		failed = 1;
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "test") == 0) {
		int a[] = {2, 4, 6};
		int b[] = {7};
		expect("NAME(2, 4, 6)", NAME(a, 3), 4);
		expect("NAME(7)", NAME(b, 1), 7);
		expect("largest(2, 4, 6)", largest(a, 3), 6);
		if (!failed)
			printf("ok\n");
		return failed;
	}
	int xs[64], n = 0;
	for (int i = 1; i < argc && n < 64; i++)
		xs[n++] = atoi(argv[i]);
	if (n == 0) {
		printf("calc %s\n", CALC_VERSION);
		return 0;
	}
	printf("NAME %d, largest %d\n", NAME(xs, n), largest(xs, n));
	return 0;
}
`, "NAME", name)
	}
	readme := "# calc\n\n`make check` builds calc and runs its self-test.\n"
	base := map[string]string{
		"Makefile":  "CC = cc\nCFLAGS = -O0 -Wall\n\ncalc: main.c calc.c calc.h\n\t$(CC) $(CFLAGS) -o calc main.c calc.c\n\ncheck: calc\n\t./calc test\n\nclean:\n\trm -f calc\n\n.PHONY: check clean\n",
		"README.md": readme,
		"calc.h":    header("avg", 0),
		"calc.c":    calc(0, false),
		"main.c":    mainC("avg"),
	}
	name := "avg"
	return history(dir, base, 15, func(k int) (string, map[string]string) {
		switch {
		case k == 9:
			name = "mean"
			return "calc: avg is mean now", map[string]string{"calc.h": header(name, k), "calc.c": calc(k, true), "main.c": mainC(name)}
		case k%2 == 0:
			return readmeLine(&readme, k)
		default:
			return fmt.Sprintf("calc: version 0.%d", k), map[string]string{"calc.h": header(name, k), "calc.c": calc(k, name == "mean")}
		}
	}, "calc: avg is mean now")
}

// greetHistory: commit 8 builds the greeting from a format without the
// comma.
func greetHistory(dir string) (typedFixture, error) {
	greeting := func(k int, format bool) string {
		if format {
			return fmt.Sprintf("package main\n\nimport \"fmt\"\n\n// revision %d\n\nconst template = \"Hello %%s!\"\n\n// greeting greets name.\nfunc greeting(name string) string { return fmt.Sprintf(template, name) }\n", k)
		}
		return fmt.Sprintf("package main\n\n// revision %d\n\n// greeting greets name.\nfunc greeting(name string) string { return \"Hello, \" + name + \"!\" }\n", k)
	}
	readme := "# greet\n\nGreets.\n"
	base := map[string]string{
		"go.mod":                "module example.com/greet\n\ngo 1.22\n",
		"README.md":             readme,
		"cmd/greet/main.go":     "// Command greet greets its argument, or the world.\npackage main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tname := \"World\"\n\tif len(os.Args) > 1 {\n\t\tname = os.Args[1]\n\t}\n\tfmt.Println(greeting(name))\n}\n",
		"cmd/greet/greeting.go": greeting(0, false),
	}
	format := false
	return history(dir, base, 12, func(k int) (string, map[string]string) {
		switch {
		case k == 8:
			format = true
			return "greet: the greeting from a format", map[string]string{"cmd/greet/greeting.go": greeting(k, true)}
		case k%2 == 0:
			return readmeLine(&readme, k)
		default:
			return fmt.Sprintf("greet: revision %d", k), map[string]string{"cmd/greet/greeting.go": greeting(k, format)}
		}
	}, "greet: the greeting from a format")
}

// textstatsDirs: old/ and new/ of a Python module; new renames a
// function in three files and splits on a single space.
func textstatsDirs(dir string) (typedFixture, error) {
	version := func(name, split, longest string) map[string]string {
		r := strings.NewReplacer("NAME", name, "SPLIT", split, "LONGEST", longest)
		return map[string]string{
			"textstats.py": r.Replace(`"""Word statistics of a text."""


def NAME(text):
    """Returns the number of words of text."""
    return len(text.SPLIT)


def longest_word(text):
    """Returns the longest word of text, the first of equal ones."""
LONGEST
`),
			"test_textstats.py": r.Replace(`import unittest

from textstats import NAME, longest_word


class TextStatsTest(unittest.TestCase):
    def test_count(self):
        self.assertEqual(NAME("a b c"), 3)

    def test_count_double_space(self):
        self.assertEqual(NAME("a  b"), 2)

    def test_longest(self):
        self.assertEqual(longest_word("a bbb cc ddd"), "bbb")


if __name__ == "__main__":
    unittest.main()
`),
			"cli.py": r.Replace(`"""Prints the number of words and the longest word of standard input."""
import sys

from textstats import NAME, longest_word

text = sys.stdin.read()
print(NAME(text), longest_word(text))
`),
		}
	}
	oldLongest := "    best = \"\"\n    for w in text.split():\n        if len(w) > len(best):\n            best = w\n    return best"
	newLongest := "    return max(text.split(), key=len, default=\"\")"
	if err := fixtures.WriteFiles(filepath.Join(dir, "old"), version("count_words", "split()", oldLongest)); err != nil {
		return typedFixture{}, err
	}
	return typedFixture{old: "old", new: "new"}, fixtures.WriteFiles(filepath.Join(dir, "new"), version("word_count", `split(" ")`, newLongest))
}

// configLines is n lines "key_i = value_i" in sections, deterministic.
func configLines(n int) []string {
	var out []string
	for i := range n {
		if i%20 == 0 {
			out = append(out, fmt.Sprintf("[section%d]", i/20))
		}
		out = append(out, fmt.Sprintf("key_%d = value %d", i, i*7%13))
	}
	return out
}

// insertAt puts line at position at of lines.
func insertAt(lines []string, at int, line string) string {
	out := append(append(append([]string{}, lines[:at]...), line), lines[at:]...)
	return strings.Join(out, "\n") + "\n"
}

func kvcatModule(dir string) (typedFixture, error) {
	return typedFixture{}, fixtures.WriteFiles(dir, map[string]string{
		"go.mod": "module example.com/kv\n\ngo 1.22\n",
		"cmd/kvcat/main.go": `// Command kvcat prints the settings of a config file read on standard
// input, one per line, and the address it listens on.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	section := ""
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = line[1 : len(line)-1]
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "listen" {
			hostPort := strings.Split(v, ":")
			fmt.Printf("listening on host %s, port %s\n", hostPort[0], hostPort[1])
			continue
		}
		fmt.Printf("%s.%s = %s\n", section, k, v)
	}
}
`,
		"g.conf": insertAt(configLines(110), 57, "listen = localhost"),
	})
}

func weightsModule(dir string) (typedFixture, error) {
	var lines []string
	for i := range 80 {
		lines = append(lines, fmt.Sprintf("item%02d: %d", i, 1+i*37%9))
	}
	lines[43] = "item43: 0"
	return typedFixture{}, fixtures.WriteFiles(dir, map[string]string{
		"go.mod": "module example.com/weights\n\ngo 1.22\n",
		"cmd/weights/main.go": `// Command weights prints the share of each item of the file named by
// its argument ("name: weight" lines) in 1,000 units.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, w, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil {
			continue
		}
		fmt.Printf("%s %d\n", name, 1000/n)
	}
}
`,
		"weights.txt": strings.Join(lines, "\n") + "\n",
	})
}

func serverLog(dir string) (typedFixture, error) {
	var b strings.Builder
	levels := []string{"INFO", "INFO", "DEBUG", "WARN", "INFO"}
	for i := range 300 {
		if i == 187 {
			b.WriteString("2026-03-02 10:03:07 ERROR [worker-3] java.lang.OutOfMemoryError: Java heap space\n")
			continue
		}
		fmt.Fprintf(&b, "2026-03-02 10:%02d:%02d %s [worker-%d] request %d served in %d ms\n", i/60, i%60, levels[i%5], i%4, 1000+i, 3+i*17%90)
	}
	return typedFixture{}, fixtures.WriteFiles(dir, map[string]string{"server.log": b.String()})
}

func salesFile(dir string) (typedFixture, error) {
	var b strings.Builder
	b.WriteString("item;qty;price\n")
	for i := range 60 {
		if i == 38 {
			b.WriteString("nails;12;0,35\n")
			continue
		}
		fmt.Fprintf(&b, "part%02d;%d;%d.%02d\n", i, 1+i%7, 1+i*13%40, i*29%100)
	}
	if err := fixtures.WriteFiles(dir, map[string]string{
		"sales.txt": b.String(),
		"bin/summarize": `#!/usr/bin/env python3
"""summarize prints the total of a sales file ("item;qty;price" lines
after that header) read on standard input."""
import sys

rows = sys.stdin.read().splitlines()
if not rows or rows[0] != "item;qty;price":
    sys.exit("summarize: no header item;qty;price")
total = 0.0
for row in rows[1:]:
    item, qty, price = row.split(";")
    total += int(qty) * float(price)
print(f"total {total:.2f}")
`,
	}); err != nil {
		return typedFixture{}, err
	}
	return typedFixture{}, os.Chmod(filepath.Join(dir, "bin", "summarize"), 0o755)
}

func orderFile(dir string) (typedFixture, error) {
	var items []string
	for i := range 30 {
		price := fmt.Sprintf("%d.%d", 1+i*7%30, i%10)
		if i == 21 {
			price = `"12.50"`
		}
		items = append(items, fmt.Sprintf(`    {"sku": "A-%03d", "name": "part %d", "qty": %d, "price": %s}`, i, i, 1+i%4, price))
	}
	return typedFixture{}, fixtures.WriteFiles(dir, map[string]string{
		"order.json": "{\n  \"id\": 4711,\n  \"customer\": \"ACME\",\n  \"items\": [\n" + strings.Join(items, ",\n") + "\n  ]\n}\n",
	})
}

func portsRepo(dir string) (typedFixture, error) {
	var lines []string
	for i := range 50 {
		lines = append(lines, fmt.Sprintf("service%02d = %d", i, 8000+i*37))
	}
	lines[29] = "metrics = 99999"
	if err := fixtures.WriteFiles(dir, map[string]string{
		"ports.conf":   "# service = port\n" + strings.Join(lines, "\n") + "\n",
		"scripts/t.sh": "#!/bin/sh\n# t.sh: check the ports of the config on standard input\nexec python3 tools/checkports.py\n",
		"tools/checkports.py": `"""Checks the "service = port" lines of a config read on standard input."""
import sys

for line in sys.stdin:
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name, port = line.split("=")
    if not 0 < int(port) < 65536:
        raise ValueError(f"port out of range: {int(port)}")
print("ports ok")
`,
	}); err != nil {
		return typedFixture{}, err
	}
	return typedFixture{}, os.Chmod(filepath.Join(dir, "scripts", "t.sh"), 0o755)
}

// plainConf is an input for the tests that fail whatever the input, with
// the scripts of the --test cases beside it.
func plainConf(dir string) (typedFixture, error) {
	if err := fixtures.WriteFiles(dir, map[string]string{
		"m.conf":         strings.Join(configLines(40), "\n") + "\n",
		"always1.sh":     "#!/bin/sh\n# the test: it fails (exit 1), whatever the input\nexit 1\n",
		"interesting.sh": "#!/bin/sh\n# interesting (exit 0) when the failure occurs: always\nexit 0\n",
	}); err != nil {
		return typedFixture{}, err
	}
	for _, s := range []string{"always1.sh", "interesting.sh"} {
		if err := os.Chmod(filepath.Join(dir, s), 0o755); err != nil {
			return typedFixture{}, err
		}
	}
	return typedFixture{}, nil
}
