package decomp

import (
	"bytes"
	"fmt"
)

// Blocks cuts text at its indented blocks of one nesting depth (0 is
// the outermost): a line with the lines after it indented deeper than
// it (and the blank lines among them), as YAML and Python nest. Each
// block that has such lines is one piece, so leaving it out removes a
// key with everything under it; the text between such blocks forms
// pieces of its own.
type Blocks struct {
	Depth int
}

func (b Blocks) Name() string { return fmt.Sprintf("indented blocks at depth %d", b.Depth) }

func (b Blocks) Cut(data []byte) (Pieces, error) {
	c := newCutter(data)
	eachBlock(data, func(start, end, depth int) {
		if depth == b.Depth {
			c.at(start)
			c.at(end)
		}
	})
	return c.done(), nil
}

// eachBlock calls f with every indented block of data that has lines
// under it, by its end: its start and end offsets (the end of its last
// line that is not blank, newline included) and its depth. Blocks of
// one depth come in order and do not overlap.
func eachBlock(data []byte, f func(start, end, depth int)) {
	type open struct{ start, indent, header int }
	var stack []open
	last := 0 // the end of the last line that is not blank
	closeTo := func(indent int) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if last > o.header {
				f(o.start, last, len(stack))
			}
		}
	}
	for at := 0; at < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			end = at + i + 1
		}
		line := data[at:end]
		indent := 0
		for indent < len(line) && (line[indent] == ' ' || line[indent] == '\t') {
			indent++
		}
		if indent < len(line) && line[indent] != '\n' && line[indent] != '\r' {
			closeTo(indent)
			stack = append(stack, open{at, indent, end})
			last = end
		}
		at = end
	}
	closeTo(0)
}

// Indented reports whether data is indented text: its outermost
// indented blocks hold at least half of its bytes (YAML, Python). As
// with bracket groups in nested text, most cuts by lines there leave
// lines indented under nothing, while a block goes whole.
func Indented(data []byte) bool {
	in := 0
	eachBlock(data, func(start, end, depth int) {
		if depth == 0 {
			in += end - start
		}
	})
	return in > 0 && 2*in >= len(data)
}
