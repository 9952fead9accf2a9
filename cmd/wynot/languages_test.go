package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/syntax"
	_ "github.com/wynot/wynot/domain/syntax/all"
)

// TestManualLanguages: the manual's list of the languages inputs are
// reduced in names every language of the table, and nothing else.
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
	for _, n := range syntax.Names() {
		if !listed[n] {
			t.Errorf("the manual does not list %s: %s", n, m[1])
		}
		delete(listed, n)
	}
	for n := range listed {
		t.Errorf("the manual lists %s, which is no language of the table", n)
	}
}
