package main

import (
	"bufio"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wynot/wynot/domain/decomp"
)

// syntaxCases are the source code cases of the syntax section: Go (the
// Debugging Book's remove_html_markup analog, and the Go cases of the
// Perses benchmark when its folder is there) and C (the gcc case).
func syntaxCases(root, perses string) []benchCase {
	shown := perses
	if rel, err := filepath.Rel(root, perses); err == nil {
		shown = rel
	}
	cs := []benchCase{{
		name: "markup", file: "markup.go",
		input: fileInput("examples/markup/markup.go"),
		check: fmt.Sprintf(`cp %q . && go run markup.go main.go >/dev/null 2>err; grep -q 'panic: My Test' err`,
			filepath.Join(root, "examples/markup/main.go")),
		about: "examples/markup: remove_html_markup in Go and the functions around it; the test (`go run` with main.go beside it) checks tag removal, then fails on double quotes.",
	}}
	for _, id := range []string{"29220", "30606"} {
		test := filepath.Join(perses, "go-"+id, "test.sh")
		if _, err := os.Stat(test); err != nil {
			continue
		}
		cs = append(cs, benchCase{
			name: "go-" + id, file: id + ".go",
			input: func(string) ([]byte, error) { return os.ReadFile(filepath.Join(perses, "go-"+id, id+".go")) },
			// The case's own test counts its runs too: not twice.
			check: fmt.Sprintf(`BENCH_COUNTER= %q`, test),
			about: "Perses benchmark, a Go compiler or runtime failure (see " + filepath.Join(shown, "go-"+id, "README.md") + ").",
		})
	}
	for _, c := range cases() {
		if c.name == "gcc" {
			cs = append(cs, c)
		}
	}
	return cs
}

// syntaxTools are wynot as it reduces source code (--split auto: the
// syntax tree, then tokens and characters), wynot without syntax
// (--split text: lines, brackets, tokens, characters), and the peers in
// the mode that fits the language (C-Reduce and C-Vise know C; Go is
// --not-c).
func syntaxTools(wynot string) []tool {
	return []tool{
		wynotTool("wynot", wynot),
		wynotTool("wynot text", wynot, "--split", "text"),
		cReduceTool("creduce", notC),
		cReduceTool("cvise", notC),
	}
}

// countTokens counts a result's tokens: for Go as go/scanner does
// without comments and inserted semicolons (as the Perses benchmark's
// gotokens.go), for other text as wynot's token split without blanks.
func countTokens(file string, data []byte) int {
	if strings.HasSuffix(file, ".go") {
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile(file, -1, len(data)), data, nil, 0)
		n := 0
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				return n
			}
			if tok == token.SEMICOLON && lit == "\n" {
				continue
			}
			n++
		}
	}
	p, err := decomp.Tokens{}.Cut(data)
	if err != nil {
		return 0
	}
	n := 0
	for i := range p.Len() {
		if strings.TrimSpace(string(p.Piece(i))) != "" {
			n++
		}
	}
	return n
}

// persesRows reads the peers' recorded runs on the Perses cases from the
// benchmark's results.tsv, when they are not run here.
func persesRows(perses string) []row {
	f, err := os.Open(filepath.Join(perses, "results.tsv"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 11 || fs[0] == "case" || (fs[1] != "creduce" && fs[1] != "cvise") {
			continue
		}
		jobs, _ := strconv.Atoi(fs[3])
		secs, _ := strconv.ParseFloat(fs[5], 64)
		tests, _ := strconv.Atoi(fs[6])
		in, _ := strconv.Atoi(fs[7])
		out, _ := strconv.Atoi(fs[8])
		toks, _ := strconv.Atoi(fs[9])
		status := "ok"
		if fs[4] == "timeout" {
			status = "cut off"
		}
		rows = append(rows, row{Case: fs[0], Tool: fs[1] + " (recorded)", Jobs: jobs, InputBytes: in, Tests: tests, Seconds: secs,
			FinalBytes: out, FinalTokens: toks, Status: status})
	}
	return rows
}

// syntaxSection measures syntax-aware reduction against wynot's own text
// reduction and the peers on source code, with two tests at a time.
func syntaxSection(root, work, bin, toolsFlag, casesFlag, perses string, limit time.Duration) string {
	var rows []row
	cs := syntaxCases(root, perses)
	ts := syntaxTools(filepath.Join(bin, "wynot"))
	recorded := false
	for _, c := range cs {
		if casesFlag != "" && !slices.Contains(strings.Split(casesFlag, ","), c.name) {
			continue
		}
		for i := range ts {
			t := &ts[i]
			if !slices.Contains(strings.Split(toolsFlag, ","), strings.Fields(t.name)[0]) {
				continue
			}
			if t.version == "" {
				t.version = versionOf(t.name)
			}
			if t.version == "" {
				continue
			}
			// The peers take the full 10 minutes and more on the
			// Perses cases; their recorded runs are used.
			if strings.HasPrefix(c.name, "go-") && t.name != "wynot" && t.name != "wynot text" {
				recorded = true
				continue
			}
			r := reduce(root, work, bin, c, *t, 2, limit)
			fmt.Printf("%-8s %-10s %6d tests  %8.1fs  %6d -> %d bytes, %d tokens  %s\n", r.Case, r.Tool, r.Tests, r.Seconds, r.InputBytes, r.FinalBytes, r.FinalTokens, r.Status)
			rows = append(rows, r)
		}
	}
	if recorded {
		for _, r := range persesRows(perses) {
			if casesFlag == "" || slices.Contains(strings.Split(casesFlag, ","), r.Case) {
				rows = append(rows, r)
			}
		}
	}
	var b strings.Builder
	b.WriteString("## Syntax-aware reduction\n\n")
	b.WriteString("Source code reduced by wynot as a syntax tree (`--split auto`: go/ast for Go, the tree-sitter grammar for C; then tokens and characters, testing only candidates that parse), by wynot as text (`--split text`: lines, brackets, tokens, characters), and by C-Reduce and C-Vise (`--not-c` for Go; their C mode for C), two tests at a time, cut off after " + limit.String() + ". `tests` counts every run of the test script; candidates wynot predicts unresolved (they do not parse) are not run and not counted. Tokens: go/scanner tokens without comments and inserted semicolons for Go, non-blank tokens of wynot's token split for C.\n\n")
	for _, c := range cs {
		if casesFlag == "" || slices.Contains(strings.Split(casesFlag, ","), c.name) {
			fmt.Fprintf(&b, "- **%s**: %s\n", c.name, c.about)
		}
	}
	b.WriteString("\n| case | input bytes | tool | tests | seconds | final bytes | final tokens | status |\n|---|---:|---|---:|---:|---:|---:|---|\n")
	order := func(r row) int { return slices.IndexFunc(cs, func(c benchCase) bool { return c.name == r.Case }) }
	slices.SortStableFunc(rows, func(a, b row) int { return order(a) - order(b) })
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %s | %d | %.1f | %d | %d | %s |\n", r.Case, r.InputBytes, r.Tool, r.Tests, r.Seconds, r.FinalBytes, r.FinalTokens, r.Status)
	}
	if recorded {
		shown := perses
		if rel, err := filepath.Rel(root, perses); err == nil {
			shown = rel
		}
		b.WriteString("\nRows marked (recorded) are the peers' runs on the Perses cases as the benchmark recorded them (" + filepath.Join(shown, "results.tsv") + ", same machine, `--not-c --n 2`, 600 s limit).\n")
	}
	return b.String() + "\n"
}
