// Package decomp cuts inputs into changes: the elements that delta
// debugging leaves in or takes out. Each decomposition cuts a byte string
// into consecutive, non-empty pieces, so that a configuration (a set of
// piece indices) becomes an input by concatenating its pieces in order,
// and every decomposition obeys the round-trip law
//
//	Join(Cut(x), all pieces) == x
//
// which Check verifies. Pieces are given by their cut offsets, which costs
// one int per piece however the input is cut.
package decomp

import (
	"bytes"
	"fmt"
	"slices"
	"unicode/utf8"
)

// Pieces is an input cut into pieces: piece i is Data[Cuts[i]:Cuts[i+1]].
// Cuts starts at 0, ends at len(Data) and strictly increases.
type Pieces struct {
	Data []byte
	Cuts []int
}

// Len is the number of pieces.
func (p Pieces) Len() int { return max(len(p.Cuts)-1, 0) }

// Piece returns piece i.
func (p Pieces) Piece(i int) []byte { return p.Data[p.Cuts[i]:p.Cuts[i+1]] }

// Join concatenates the pieces at the sorted indices in c.
func (p Pieces) Join(c []int) []byte {
	n := 0
	for _, i := range c {
		n += p.Cuts[i+1] - p.Cuts[i]
	}
	out := make([]byte, 0, n)
	// Runs of consecutive indices are copied in one go.
	for k := 0; k < len(c); {
		j := k
		for j+1 < len(c) && c[j+1] == c[j]+1 {
			j++
		}
		out = append(out, p.Data[p.Cuts[c[k]]:p.Cuts[c[j]+1]]...)
		k = j + 1
	}
	return out
}

// A Splitter is one way of cutting inputs into pieces.
type Splitter interface {
	// Name is the splitter's name on the command line (--split NAME).
	Name() string
	// Cut cuts data into pieces. It fails when data is not of the kind
	// the splitter understands (e.g. runes of invalid UTF-8).
	Cut(data []byte) (Pieces, error)
}

// Check verifies the round-trip law and the shape of p for data: it is
// the conformance test every Splitter passes.
func Check(data []byte, p Pieces) error {
	if len(data) == 0 {
		if p.Len() != 0 {
			return fmt.Errorf("empty input cut into %d pieces", p.Len())
		}
		return nil
	}
	if len(p.Cuts) < 2 || p.Cuts[0] != 0 || p.Cuts[len(p.Cuts)-1] != len(data) {
		return fmt.Errorf("cuts %v do not span the input of %d bytes", short(p.Cuts), len(data))
	}
	for i := 1; i < len(p.Cuts); i++ {
		if p.Cuts[i] <= p.Cuts[i-1] {
			return fmt.Errorf("cut %d at %d does not follow %d: empty or backward piece", i, p.Cuts[i], p.Cuts[i-1])
		}
	}
	all := make([]int, p.Len())
	for i := range all {
		all[i] = i
	}
	if got := p.Join(all); !slices.Equal(got, data) {
		return fmt.Errorf("joining all pieces does not give the input back")
	}
	return nil
}

func short(c []int) []int {
	if len(c) > 8 {
		return c[:8]
	}
	return c
}

// cuts builds Pieces from the start offsets of pieces after the first.
type cutter struct {
	data []byte
	cuts []int
}

func newCutter(data []byte) *cutter {
	return &cutter{data: data, cuts: []int{0}}
}

// at cuts before offset i, unless a cut is already there or i is 0.
func (c *cutter) at(i int) {
	if i > c.cuts[len(c.cuts)-1] && i < len(c.data) {
		c.cuts = append(c.cuts, i)
	}
}

func (c *cutter) done() Pieces {
	if len(c.data) == 0 {
		return Pieces{Data: c.data}
	}
	return Pieces{Data: c.data, Cuts: append(c.cuts, len(c.data))}
}

// Count is the number of pieces sp cuts data into: Cut(data).Len(),
// without the offsets where a count is enough (for bytes, runes, lines
// and tokens).
func Count(sp Splitter, data []byte) int {
	switch sp.(type) {
	case Bytes:
		return len(data)
	case Runes:
		if utf8.Valid(data) {
			return utf8.RuneCount(data)
		}
	case Lines:
		n := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			n++
		}
		return n
	case Tokens:
		n := 0
		for range scan(data) {
			n++
		}
		return n
	}
	p, err := sp.Cut(data)
	if err != nil {
		return 0
	}
	return p.Len()
}

// Bytes cuts an input into single bytes.
type Bytes struct{}

func (Bytes) Name() string { return "bytes" }

func (Bytes) Cut(data []byte) (Pieces, error) {
	if len(data) == 0 {
		return Pieces{Data: data}, nil
	}
	cuts := make([]int, len(data)+1)
	for i := range cuts {
		cuts[i] = i
	}
	return Pieces{Data: data, Cuts: cuts}, nil
}

// Runes cuts UTF-8 text into characters; it never splits an encoded
// character. Input that is not valid UTF-8 is an error.
type Runes struct{}

func (Runes) Name() string { return "runes" }

func (Runes) Cut(data []byte) (Pieces, error) {
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return Pieces{}, fmt.Errorf("not valid UTF-8 (first bad byte at offset %d); cut it into bytes instead", i)
	}
	c := newCutter(data)
	for i := 0; i < len(data); {
		_, n := utf8.DecodeRune(data[i:])
		i += n
		c.at(i)
	}
	return c.done(), nil
}

// Chars is the finest cut of inputs: Runes when every one of them is
// valid UTF-8, else Bytes.
func Chars(inputs ...[]byte) Splitter {
	for _, in := range inputs {
		if !utf8.Valid(in) {
			return Bytes{}
		}
	}
	return Runes{}
}

// Lines cuts an input into lines, each with its newline.
type Lines struct{}

func (Lines) Name() string { return "lines" }

func (Lines) Cut(data []byte) (Pieces, error) {
	c := newCutter(data)
	for i, b := range data {
		if b == '\n' {
			c.at(i + 1)
		}
	}
	return c.done(), nil
}
