package reduce

import (
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		text    string
		want    Split
		lang    string // the language of an input named x.c
		wantErr string
	}{
		{text: "auto", want: Split{Kind: Auto}, lang: "c"},
		{text: "text", want: Split{Kind: Text}},
		{text: "go", want: Split{Kind: Go}, lang: "go"},
		{text: "tree:python", want: Split{Tree, "python"}, lang: "python"},
		{text: "lines", want: Split{Kind: Lines}},
		{text: "bytes", want: Split{Kind: Bytes}},
		{text: "tree:cobol", wantErr: `no grammar for "cobol"`},
		{text: "tree:LANG", wantErr: `no grammar for "LANG"`},
		{text: "words", wantErr: "want one of auto, text, go, lines, brackets, tokens, runes, bytes, or tree:LANG"},
	} {
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
		if got := sp.lang("x.c"); got != c.lang {
			t.Errorf("%s: the language of x.c is %q, want %q", c.text, got, c.lang)
		}
	}
}
