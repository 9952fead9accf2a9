package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxLineWidth is the widest line ShowDiff prints whole.
const MaxLineWidth = 160

// window is how much of a long line ShowDiff shows on each side of a
// change.
const window = 48

// ShowDiff renders a unified diff for a terminal: a line wider than
// MaxLineWidth is shown as a window around what changed in it, with the
// column where the window starts, and a wide context line is cut; other
// lines are left as they are. The full diff is what the result files and
// the JSON summary hold.
func ShowDiff(unified string) string {
	lines := strings.SplitAfter(unified, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if len(l) <= MaxLineWidth+1 || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "@@") {
			b.WriteString(l)
			continue
		}
		// A run of - lines then + lines (with "\ No newline" notes among
		// them): pair them up to find where each pair differs.
		if l[0] == '-' {
			k := i
			var dels, adds []string
			for k < len(lines) && (lines[k] != "" && strings.ContainsRune("-+\\", rune(lines[k][0]))) {
				switch lines[k][0] {
				case '-':
					dels = append(dels, lines[k][1:])
				case '+':
					adds = append(adds, lines[k][1:])
				}
				k++
			}
			d, a := 0, 0
			for _, m := range lines[i:k] {
				switch m[0] {
				case '-':
					other := ""
					if d < len(adds) {
						other = adds[d]
					}
					b.WriteString(windowed('-', dels[d], other))
					d++
				case '+':
					other := ""
					if a < len(dels) {
						other = dels[a]
					}
					b.WriteString(windowed('+', adds[a], other))
					a++
				default:
					b.WriteString(m)
				}
			}
			i = k - 1
			continue
		}
		if l[0] == '+' {
			b.WriteString(windowed('+', l[1:], ""))
			continue
		}
		b.WriteString(windowed(l[0], l[1:], l[1:]))
	}
	return b.String()
}

// windowed shows line (without its diff marker) as a window around where
// it differs from other: the marker, the window with "…" where it is cut,
// and the column of its start.
func windowed(marker byte, line, other string) string {
	nl := ""
	if strings.HasSuffix(line, "\n") {
		line, nl = line[:len(line)-1], "\n"
	}
	other = strings.TrimSuffix(other, "\n")
	if len(line) <= MaxLineWidth {
		return string(marker) + line + nl
	}
	// The change lies between the common prefix and the common suffix.
	p := 0
	for p < len(line) && p < len(other) && line[p] == other[p] {
		p++
	}
	s := 0
	for s < len(line)-p && s < len(other)-p && line[len(line)-1-s] == other[len(other)-1-s] {
		s++
	}
	from, to := max(p-window, 0), min(len(line)-s+window, len(line))
	if line == other { // a context line: its start
		from, to = 0, MaxLineWidth
	}
	if to-from > MaxLineWidth {
		to = from + MaxLineWidth
	}
	from, to = runeStart(line, from), runeStart(line, to)
	var b strings.Builder
	b.WriteByte(marker)
	if from > 0 {
		b.WriteString("…")
	}
	b.WriteString(line[from:to])
	if to < len(line) {
		b.WriteString("…")
	}
	fmt.Fprintf(&b, "    [column %d of %d]", from+1, len(line))
	return b.String() + nl
}

// runeStart moves i back to the start of the UTF-8 sequence it is in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// IsBinary says whether data is shown better as bytes than as text: it is
// not UTF-8, or holds NUL or other control characters than white space.
func IsBinary(data []byte) bool {
	if !utf8.Valid(data) {
		return true
	}
	for _, c := range data {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' {
			return true
		}
	}
	return false
}

// HexDiff shows where two byte strings differ as hex dump windows of
// both, aligned to 16 bytes, around the first difference: the offset,
// each byte in hex and as a character where it is printable.
func HexDiff(a, b []byte, nameA, nameB string) string {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s (%s)\n+++ %s (%s)\n", nameA, Plural(len(a), "byte"), nameB, Plural(len(b), "byte"))
	if p == len(a) && p == len(b) {
		return out.String()
	}
	start := max(p-16, 0) &^ 15
	fmt.Fprintf(&out, "@@ first difference at offset %d (0x%x) @@\n", p, p)
	for _, side := range []struct {
		marker byte
		data   []byte
	}{{'-', a}, {'+', b}} {
		for off := start; off < start+48 && off < len(side.data); off += 16 {
			row := side.data[off:min(off+16, len(side.data))]
			fmt.Fprintf(&out, "%c %08x  %-48s |%s|\n", side.marker, off, hexBytes(row), printable(row))
		}
	}
	return out.String()
}

func hexBytes(row []byte) string {
	var b strings.Builder
	for i, c := range row {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%02x", c)
	}
	return b.String()
}

func printable(row []byte) string {
	out := make([]byte, len(row))
	for i, c := range row {
		out[i] = c
		if c < 0x20 || c > 0x7e {
			out[i] = '.'
		}
	}
	return string(out)
}
