package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/syntax"
	_ "github.com/wynot/wynot/domain/syntax/all"
	"github.com/wynot/wynot/domain/syntax/treesitter"
)

// grammars says whether this build, and so the wynot binary the tests
// build with the same settings, has the tree-sitter grammars: they need
// cgo (CGO_ENABLED=0 builds have none).
var grammars = len(treesitter.Names()) > 0

// needGrammars skips a test that reduces in a tree-sitter language when
// the wynot under test was built without cgo.
func needGrammars(t *testing.T) {
	t.Helper()
	if !grammars {
		t.Skip("needs the tree-sitter grammars: " + treesitter.NoCgo + " (TestReduceWithoutCgo tests that build)")
	}
}

// TestManualLanguages: the manual's list of the languages inputs are
// reduced in names every language of the table, and those a wynot built
// without cgo lacks, and nothing else.
func TestManualLanguages(t *testing.T) {
	m := regexp.MustCompile(`--split tree:LANG reduces by a tree-sitter grammar \(([^)]*)\)`).FindStringSubmatch(strings.Join(strings.Fields(manual()), " "))
	if m == nil {
		t.Fatal("the manual has no list of the grammars of --split tree:LANG")
	}
	listed := map[string]bool{}
	for _, w := range regexp.MustCompile(`[a-z]+`).FindAllString(strings.SplitN(m[1], " for ", 2)[0], -1) {
		if w != "and" {
			listed[w] = true
		}
	}
	names := syntax.Names()
	for _, a := range syntax.Absents() {
		names = append(names, a.Name)
	}
	for _, n := range names {
		if !listed[n] {
			t.Errorf("the manual does not list %s: %s", n, m[1])
		}
		delete(listed, n)
	}
	for n := range listed {
		t.Errorf("the manual lists %s, which is no language of the table", n)
	}
}
