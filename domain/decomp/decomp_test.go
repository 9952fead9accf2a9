package decomp

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func splitters(data []byte) []Splitter {
	s := []Splitter{Bytes{}, Lines{}, Tokens{}}
	for d := range MaxDepth(data) + 1 {
		s = append(s, Brackets{Depth: d}, Brackets{Depth: d, Contents: true})
	}
	return s
}

func pieces(t *testing.T, s Splitter, in string) []string {
	t.Helper()
	p, err := s.Cut([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if err := Check([]byte(in), p); err != nil {
		t.Fatalf("%s on %q: %v", s.Name(), in, err)
	}
	var out []string
	for i := range p.Len() {
		out = append(out, string(p.Piece(i)))
	}
	return out
}

// TestConformance checks the round-trip law on inputs of every kind:
// random bytes, random text with brackets and quotes, and empty input.
func TestConformance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab_19 \t\n(){}[]<>\"'`\\,;+=-é")
	inputs := [][]byte{{}, []byte("x"), []byte("\n\n"), []byte(`"unterminated`), []byte("((("), []byte(")))")}
	for range 500 {
		b := make([]byte, rng.IntN(200))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.IntN(256))
			} else {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		inputs = append(inputs, b)
	}
	for _, in := range inputs {
		for _, s := range append(splitters(in), Runes{}) {
			p, err := s.Cut(in)
			if err != nil {
				if _, ok := s.(Runes); ok {
					continue // invalid UTF-8 is rejected, checked below
				}
				t.Fatalf("%s on %q: %v", s.Name(), in, err)
			}
			if err := Check(in, p); err != nil {
				t.Fatalf("%s on %q: %v", s.Name(), in, err)
			}
		}
	}
}

func TestCheckCatchesBrokenPieces(t *testing.T) {
	data := []byte("abc")
	for _, p := range []Pieces{
		{Data: data, Cuts: []int{0, 2}},
		{Data: data, Cuts: []int{1, 3}},
		{Data: data, Cuts: []int{0, 2, 2, 3}},
		{Data: data, Cuts: []int{0, 2, 1, 3}},
		{Data: data},
	} {
		if Check(data, p) == nil {
			t.Errorf("Check accepts %v", p.Cuts)
		}
	}
}

func TestSplitters(t *testing.T) {
	for _, c := range []struct {
		s    Splitter
		in   string
		want []string
	}{
		{Lines{}, "a\nbb\n\nc", []string{"a\n", "bb\n", "\n", "c"}},
		{Runes{}, "aé€", []string{"a", "é", "€"}},
		{Tokens{}, `if (x_1 >= 42) { s = "a \"b\" c"; }`, []string{
			"if", " ", "(", "x_1", " ", ">=", " ", "42", ")", " ", "{", " ", "s", " ", "=", " ", `"a \"b\" c"`, ";", " ", "}"}},
		{Tokens{}, "it's\nok", []string{"it", "'s", "\n", "ok"}},
		{Tokens{}, "a->b::c", []string{"a", "->", "b", "::", "c"}},
		{Brackets{Depth: 0}, "f(a, g(b)) + h[1]", []string{"f", "(a, g(b))", " + h", "[1]"}},
		{Brackets{Depth: 1}, "f(a, g(b)) + h[1]", []string{"f(a, g", "(b)", ") + h[1]"}},
		{Brackets{Depth: 0, Contents: true}, "f(a, g(b)) + h[]", []string{"f(", "a, g(b)", ") + h[]"}},
		{Brackets{Depth: 0}, `s = "(" + (x)`, []string{`s = "(" + `, "(x)"}},
		{Brackets{Depth: 0}, "a ( b ] c )", []string{"a ", "( b ] c )"}},
	} {
		if got := pieces(t, c.s, c.in); !slices.Equal(got, c.want) {
			t.Errorf("%s on %q:\n got %q\nwant %q", c.s.Name(), c.in, got, c.want)
		}
	}
}

func TestRunesRejectsBinary(t *testing.T) {
	_, err := Runes{}.Cut([]byte("ok\xff\xfe"))
	if err == nil || !strings.Contains(err.Error(), "offset 2") {
		t.Errorf("err = %v, want an error naming offset 2", err)
	}
}

func TestJoin(t *testing.T) {
	p, _ := Tokens{}.Cut([]byte("a b c d"))
	if got := string(p.Join([]int{0, 1, 2, 6})); got != "a bd" {
		t.Errorf("Join = %q", got)
	}
	if got := string(p.Join(nil)); got != "" {
		t.Errorf("Join(nil) = %q", got)
	}
}

func TestMaxDepth(t *testing.T) {
	for in, want := range map[string]int{"x": 0, "f(x)": 1, "f(g[x])": 2, "{(})": 1, `"("`: 0} {
		if got := MaxDepth([]byte(in)); got != want {
			t.Errorf("MaxDepth(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestNested(t *testing.T) {
	for in, want := range map[string]bool{
		"":                    false,
		"a = 1\nb = [2, 3]\n": false, // groups on one line only
		"x {\n  y = 1\n}\n":   true,
		"# a comment longer than the block\nx {\n}\n": false,
		"[a]\nb = 1\n[c]\nd = 2\n":                    false, // TOML tables: headers, not blocks
		"f(\n\"(\"\n)":                                true,
	} {
		if got := Nested([]byte(in)); got != want {
			t.Errorf("Nested(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestBlocks(t *testing.T) {
	src := "# top\na: 1\nb:\n  c: 2\n\n  d:\n    - e\nf: 3\n"
	for depth, want := range map[int][]string{
		0: {"# top\na: 1\n", "b:\n  c: 2\n\n  d:\n    - e\n", "f: 3\n"},
		1: {"# top\na: 1\nb:\n  c: 2\n\n", "  d:\n    - e\n", "f: 3\n"},
		2: {src},
	} {
		p, err := Blocks{Depth: depth}.Cut([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i := range p.Len() {
			got = append(got, string(p.Join([]int{i})))
		}
		if !slices.Equal(got, want) {
			t.Errorf("depth %d: %q, want %q", depth, got, want)
		}
	}
	for in, want := range map[string]bool{
		"":               false,
		src:              true,
		"a = 1\nb = 2\n": false,
		"[a]\nb = [\n  1,\n]\nc = 1\nd = 2\ne = 3\nf = 4\n": false, // one array of a TOML file
		"x:\n\ty\n": true,
	} {
		if got := Indented([]byte(in)); got != want {
			t.Errorf("Indented(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestChars(t *testing.T) {
	if _, ok := Chars([]byte("héllo"), nil).(Runes); !ok {
		t.Errorf("UTF-8 text: want Runes")
	}
	if _, ok := Chars([]byte("ok"), []byte{0xff}).(Bytes); !ok {
		t.Errorf("an input that is not UTF-8: want Bytes")
	}
}

// TestCount checks that Count agrees with Cut on inputs of every kind.
func TestCount(t *testing.T) {
	for _, in := range []string{"", "a", "a\n", "a\nb", "\n\n", "héllo wörld\n(x) [y]", "\xff\xfe\n", "f(g(x), \"s\")"} {
		for _, sp := range []Splitter{Bytes{}, Runes{}, Lines{}, Tokens{}, Brackets{}, Chars([]byte(in))} {
			p, err := sp.Cut([]byte(in))
			if err != nil {
				continue
			}
			if got := Count(sp, []byte(in)); got != p.Len() {
				t.Errorf("Count(%s, %q) = %d, Cut gives %d pieces", sp.Name(), in, got, p.Len())
			}
		}
	}
}
