package split

import (
	"strings"
	"testing"

	_ "github.com/wynot/wynot/domain/syntax/all" // the languages LangOf finds by extension
	"github.com/wynot/wynot/domain/syntax/treesitter"
)

// grammars says whether this build has the tree-sitter grammars (they
// need cgo).
var grammars = len(treesitter.Names()) > 0

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		text    string
		want    Split
		lang    string // the language of an input named x.c
		treeGo  string // the language of a tree's file x.go
		absent  string // the language x.c would be in, which this wynot lacks
		wantErr string
		// noCgo is what the build without cgo says instead: its error,
		// or "text" when it reduces x.c as text for want of C.
		noCgo string
	}{
		{text: "auto", want: Split{Kind: Auto}, lang: "c", treeGo: "go", noCgo: "text"},
		{text: "text", want: Split{Kind: Text}},
		{text: "go", want: Split{Kind: Go}, lang: "go", treeGo: "go"},
		{text: "tree:python", want: Split{Tree, "python"}, lang: "python",
			noCgo: `no grammar for "python": this wynot was built without cgo, which the tree-sitter grammars need; --split auto reduces its files as text`},
		{text: "lines", want: Split{Kind: Lines}},
		{text: "bytes", want: Split{Kind: Bytes}},
		{text: "tree:cobol", wantErr: `no grammar for "cobol"`},
		{text: "tree:LANG", wantErr: `no grammar for "LANG"`},
		{text: "words", wantErr: "want one of auto, text, go, lines, brackets, tokens, runes, bytes, or tree:LANG with LANG one of c, ",
			noCgo: "want one of auto, text, go, lines, brackets, tokens, runes, bytes (no tree:LANG: this wynot was built without cgo, which the tree-sitter grammars need)"},
	} {
		if !grammars && c.noCgo == "text" {
			c.lang, c.absent = "", "c"
		} else if !grammars && c.noCgo != "" {
			c.wantErr = c.noCgo
		}
		var sp Split
		err := sp.UnmarshalText([]byte(c.text))
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", c.text, err, c.wantErr)
			}
			continue
		}
		if err != nil || sp != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.text, sp, err, c.want)
			continue
		}
		if b, _ := sp.MarshalText(); string(b) != c.text {
			t.Errorf("%s marshals as %s", c.text, b)
		}
		if got := sp.LangOf("x.c"); got != c.lang {
			t.Errorf("%s: the language of x.c is %q, want %q", c.text, got, c.lang)
		}
		if got := sp.TreeLangOf("d/x.go"); got != c.treeGo {
			t.Errorf("%s: the language of a tree's d/x.go is %q, want %q", c.text, got, c.treeGo)
		}
		if a, ok := sp.Absent("x.c"); a.Name != c.absent || ok != (c.absent != "") {
			t.Errorf("%s: x.c is in the absent language %+v, %v; want %q", c.text, a, ok, c.absent)
		}
	}
}

func TestGranularity(t *testing.T) {
	text, binary := []byte("héllo (a b)\nworld\n"), []byte{'a', 0xff, 'b'}
	for _, c := range []struct {
		split Split
		texts [][]byte
		want  string
		count int // of text
	}{
		{Split{Kind: Auto}, [][]byte{text}, characters, 18},
		{Split{Kind: Text}, [][]byte{text, binary}, "bytes", 19},
		{Split{Kind: Go}, nil, transformations, 10},
		{Split{Kind: Lines}, nil, "lines", 2},
		{Split{Kind: Tokens}, nil, "tokens", 10},
		{Split{Kind: Runes}, nil, characters, 18},
	} {
		g := c.split.Granularity(c.texts)
		if g != c.want {
			t.Errorf("%s: granularity %q, want %q", c.split, g, c.want)
		}
		if n := Count(g, text); n != c.count {
			t.Errorf("%s: %d %s in %q, want %d", c.split, n, g, text, c.count)
		}
	}
}
