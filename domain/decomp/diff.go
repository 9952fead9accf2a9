package decomp

import (
	"bytes"
	"fmt"
	"strings"
)

// A Script is an edit script that turns a passing input into a failing
// one, both cut into pieces by the same splitter: the changes of
// isolation (TSE 2002 §5). Each change is one piece deleted from the
// passing input or one piece of the failing input inserted, so a set of
// changes applied to the passing input gives an input "between" the two:
// no changes give the passing input back, all changes the failing one.
type Script struct {
	P, F Pieces
	ops  []op
	// changes are the indices into ops of the deletions and insertions.
	changes []int
	// Minimal is false when the inputs were too different to compute a
	// shortest script within the search budget; the script then replaces
	// the differing middle part wholesale, which is correct but may have
	// more changes than needed.
	Minimal bool
}

type opKind uint8

const (
	keep opKind = iota
	del
	ins
)

type op struct {
	kind opKind
	i, j int // piece of P (keep, del) and of F (keep, ins)
}

// Len is the number of changes.
func (s *Script) Len() int { return len(s.changes) }

// Change describes change k: whether it inserts (a piece of F) or deletes
// (a piece of P), and which piece.
func (s *Script) Change(k int) (insert bool, piece int) {
	o := s.ops[s.changes[k]]
	if o.kind == ins {
		return true, o.j
	}
	return false, o.i
}

// Edit is one change of a script with its position: a deletion of piece
// OldStart of P (NewStart is where it would be in F), or an insertion of
// piece NewStart of F before piece OldStart of P.
type Edit struct {
	Insert             bool
	OldStart, NewStart int
}

// Edits lists the changes in order with their positions.
func (s *Script) Edits() []Edit {
	var out []Edit
	i, j := 0, 0
	for _, o := range s.ops {
		switch o.kind {
		case keep:
			i, j = i+1, j+1
		case del:
			out = append(out, Edit{OldStart: i, NewStart: j})
			i++
		case ins:
			out = append(out, Edit{Insert: true, OldStart: i, NewStart: j})
			j++
		}
	}
	return out
}

// Apply returns the passing input with the changes at the sorted indices
// c applied.
func (s *Script) Apply(c []int) []byte {
	var out []byte
	k := 0
	for n, o := range s.ops {
		applied := false
		if o.kind != keep {
			if k < len(c) && s.changes[c[k]] == n {
				applied = true
				k++
			}
		}
		switch {
		case o.kind == keep:
			out = append(out, s.P.Piece(o.i)...)
		case o.kind == del && !applied:
			out = append(out, s.P.Piece(o.i)...)
		case o.kind == ins && applied:
			out = append(out, s.F.Piece(o.j)...)
		}
	}
	return out
}

// Replacement replaces Del pieces of a script's P, from piece At on, by
// the pieces Ins.
type Replacement struct {
	At, Del int
	Ins     [][]byte
}

// Replace returns the script that makes the replacements reps of p's
// pieces (sorted by At, not overlapping), each by a shortest script
// between its own old pieces and its new ones: the edits of each stay
// within its pieces, where Diff of the two whole texts may draw them
// across (delete another of two equal lines than the replacement did).
// Minimal is false: the whole need not be shortest.
func Replace(p Pieces, reps []Replacement) *Script {
	s := &Script{P: p}
	f := Pieces{Cuts: []int{0}}
	addF := func(piece []byte) int {
		f.Data = append(f.Data, piece...)
		f.Cuts = append(f.Cuts, len(f.Data))
		return f.Len() - 1
	}
	i := 0
	for _, r := range reps {
		for ; i < r.At; i++ {
			s.ops = append(s.ops, op{kind: keep, i: i, j: addF(p.Piece(i))})
		}
		old := Pieces{Data: p.Data, Cuts: p.Cuts[r.At : r.At+r.Del+1]}
		nw := Pieces{Cuts: []int{0}}
		for _, piece := range r.Ins {
			nw.Data = append(nw.Data, piece...)
			nw.Cuts = append(nw.Cuts, len(nw.Data))
		}
		for _, o := range Diff(old, nw).ops {
			if o.kind != keep {
				s.changes = append(s.changes, len(s.ops))
			}
			switch o.kind {
			case keep:
				s.ops = append(s.ops, op{kind: keep, i: r.At + o.i, j: addF(old.Piece(o.i))})
			case del:
				s.ops = append(s.ops, op{kind: del, i: r.At + o.i, j: f.Len()})
			case ins:
				s.ops = append(s.ops, op{kind: ins, i: r.At + o.i, j: addF(nw.Piece(o.j))})
			}
		}
		i = r.At + r.Del
	}
	for ; i < p.Len(); i++ {
		s.ops = append(s.ops, op{kind: keep, i: i, j: addF(p.Piece(i))})
	}
	s.F = f
	return s
}

// Grow returns the script that grows part, a subsequence of whole given
// as the sorted, disjoint byte spans [start, end) of whole.Data it keeps,
// into whole: the pieces of whole, cut also where a span begins or ends,
// those within part kept and the others inserted. Its changes are
// insertions only, so any set of them applied gives a subsequence of
// whole that holds part, as maximization (ddmax) needs. Diff of part and
// whole cut each on its own is no such script where the cut depends on
// the context (a token of whole may be several tokens of part, or part
// one that whole cuts in two): it deletes pieces of part, and a set of
// changes that inserts a piece of whole without deleting the piece of
// part it replaces gives bytes twice.
func Grow(whole Pieces, part [][2]int) *Script {
	s := &Script{Minimal: true}
	p := Pieces{Cuts: []int{0}}
	f := Pieces{Data: whole.Data}
	if whole.Len() > 0 {
		f.Cuts = []int{whole.Cuts[0]}
	}
	k := 0 // the first span that does not end before the piece
	for j := range whole.Len() {
		lo, hi := whole.Cuts[j], whole.Cuts[j+1]
		for lo < hi {
			for k < len(part) && part[k][1] <= lo {
				k++
			}
			in := k < len(part) && part[k][0] <= lo
			end := hi
			switch {
			case in:
				end = min(hi, part[k][1])
			case k < len(part):
				end = min(hi, part[k][0])
			}
			f.Cuts = append(f.Cuts, end)
			if in {
				p.Data = append(p.Data, whole.Data[lo:end]...)
				p.Cuts = append(p.Cuts, len(p.Data))
				s.ops = append(s.ops, op{kind: keep, i: p.Len() - 1, j: f.Len() - 1})
			} else {
				s.changes = append(s.changes, len(s.ops))
				s.ops = append(s.ops, op{kind: ins, i: p.Len(), j: f.Len() - 1})
			}
			lo = end
		}
	}
	if p.Len() == 0 {
		p.Cuts = nil
	}
	s.P, s.F = p, f
	return s
}

// Spans returns the sorted, disjoint byte spans [start, end) of F.Data
// that the changes at the sorted indices c, applied, give: Apply(c) is
// F.Data at these spans. It holds for scripts that only insert (Grow's,
// or Diff's from nothing), and panics on one that deletes.
func (s *Script) Spans(c []int) [][2]int {
	var out [][2]int
	k := 0
	for n, o := range s.ops {
		switch o.kind {
		case del:
			panic("decomp: Spans of a script that deletes")
		case ins:
			if k >= len(c) || s.changes[c[k]] != n {
				continue
			}
			k++
		}
		lo, hi := s.F.Cuts[o.j], s.F.Cuts[o.j+1]
		if m := len(out); m > 0 && out[m-1][1] == lo {
			out[m-1][1] = hi
		} else if lo < hi {
			out = append(out, [2]int{lo, hi})
		}
	}
	return out
}

// UnifiedLines is the difference between two texts by lines as a
// unified diff ("diff -u") with context lines of context, labelled with
// the two names.
func UnifiedLines(old, new []byte, nameOld, nameNew string, context int) string {
	o, _ := Lines{}.Cut(old)
	n, _ := Lines{}.Cut(new)
	return Diff(o, n).Unified(nameOld, nameNew, context)
}

// Unified renders the script as a unified diff ("diff -u") with context
// lines of context around each hunk, labelled with the two names. Pieces
// are shown as they are; with pieces cut at lines, it is the usual diff.
func (s *Script) Unified(nameP, nameF string, context int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", nameP, nameF)
	// Positions: the 1-based line of each op's start in P and in F.
	type pos struct{ lp, lf int }
	at := make([]pos, len(s.ops)+1)
	lp, lf := 1, 1
	for n, o := range s.ops {
		at[n] = pos{lp, lf}
		if o.kind != ins {
			lp += bytes.Count(s.P.Piece(o.i), nl)
		}
		if o.kind != del {
			lf += bytes.Count(s.F.Piece(o.j), nl)
		}
	}
	at[len(s.ops)] = pos{lp, lf}
	for n := 0; n < len(s.ops); {
		if s.ops[n].kind == keep {
			n++
			continue
		}
		// A hunk: from context keeps before the change to context keeps
		// after the last change that is not separated by more than
		// 2·context keeps.
		start := n
		for k := 0; k < context && start > 0 && s.ops[start-1].kind == keep; k++ {
			start--
		}
		end := n
		for end < len(s.ops) {
			if s.ops[end].kind != keep {
				end++
				continue
			}
			run := end
			for run < len(s.ops) && s.ops[run].kind == keep {
				run++
			}
			if run == len(s.ops) || run-end > 2*context {
				end = min(end+context, run)
				break
			}
			end = run
		}
		np, nf := 0, 0
		for _, o := range s.ops[start:end] {
			if o.kind != ins {
				np += lines(s.P.Piece(o.i))
			}
			if o.kind != del {
				nf += lines(s.F.Piece(o.j))
			}
		}
		// An empty side is named by the line before it, as diff does.
		lp, lf := at[start].lp, at[start].lf
		if np == 0 {
			lp--
		}
		if nf == 0 {
			lf--
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", lp, np, lf, nf)
		for _, o := range s.ops[start:end] {
			switch o.kind {
			case keep:
				writeLines(&b, " ", s.P.Piece(o.i))
			case del:
				writeLines(&b, "-", s.P.Piece(o.i))
			case ins:
				writeLines(&b, "+", s.F.Piece(o.j))
			}
		}
		n = end
	}
	return b.String()
}

var nl = []byte("\n")

// lines counts the lines text spans: its newlines, plus one for an
// unterminated last line.
func lines(text []byte) int {
	n := bytes.Count(text, nl)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// writeLines writes text with prefix before each of its lines; text that
// does not end in a newline gets one, marked as diff does.
func writeLines(b *strings.Builder, prefix string, text []byte) {
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]
		b.WriteString(prefix)
		b.Write(line)
		if line[len(line)-1] != '\n' {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// MaxEdits bounds the search for a shortest edit script: beyond this many
// differences in one region, the region is replaced wholesale.
const MaxEdits = 20000

// maxEdits is the bound in force: MaxEdits, smaller in tests that show
// what lies beyond it.
var maxEdits = MaxEdits

// Diff computes a shortest edit script between the pieces of p and f
// (Myers 1986, "An O(ND) Difference Algorithm and Its Variations", with
// the linear-space refinement), comparing pieces by content.
func Diff(p, f Pieces) *Script {
	ids := map[string]int{}
	id := func(b []byte) int {
		if v, ok := ids[string(b)]; ok {
			return v
		}
		ids[string(b)] = len(ids)
		return len(ids) - 1
	}
	a := make([]int, p.Len())
	for i := range a {
		a[i] = id(p.Piece(i))
	}
	b := make([]int, f.Len())
	for j := range b {
		b[j] = id(f.Piece(j))
	}
	d := &differ{a: a, b: b, minimal: true}
	d.compare(0, len(a), 0, len(b))
	s := &Script{P: p, F: f, ops: deletionsFirst(d.ops), Minimal: d.minimal}
	for n, o := range s.ops {
		if o.kind != keep {
			s.changes = append(s.changes, n)
		}
	}
	return s
}

// deletionsFirst puts, in each run of changes between kept pieces, the
// deletions before the insertions, as diff writes a change (the search
// may interleave them, and a unified diff would then show a "+" line
// before the "-" line it replaces). Deletions keep their pieces of P,
// insertions theirs of F; each side's position on the other is where
// the run's deletions begin (in F) and end (in P).
func deletionsFirst(ops []op) []op {
	out := make([]op, 0, len(ops))
	for k := 0; k < len(ops); {
		if ops[k].kind == keep {
			out = append(out, ops[k])
			k++
			continue
		}
		run := k
		for run < len(ops) && ops[run].kind != keep {
			run++
		}
		i0, j0 := ops[k].i, ops[k].j
		for _, o := range ops[k:run] {
			i0, j0 = min(i0, o.i), min(j0, o.j)
		}
		nd := 0
		for _, o := range ops[k:run] {
			if o.kind == del {
				out = append(out, op{del, o.i, j0})
				nd++
			}
		}
		for _, o := range ops[k:run] {
			if o.kind == ins {
				out = append(out, op{ins, i0 + nd, o.j})
			}
		}
		k = run
	}
	return out
}

type differ struct {
	a, b    []int
	ops     []op
	minimal bool
	vf, vb  []int
}

// compare appends the ops turning a[alo:ahi] into b[blo:bhi].
func (d *differ) compare(alo, ahi, blo, bhi int) {
	// Common prefix and suffix are kept.
	for alo < ahi && blo < bhi && d.a[alo] == d.b[blo] {
		d.ops = append(d.ops, op{keep, alo, blo})
		alo++
		blo++
	}
	var suffix []op
	for alo < ahi && blo < bhi && d.a[ahi-1] == d.b[bhi-1] {
		ahi--
		bhi--
		suffix = append(suffix, op{keep, ahi, bhi})
	}
	switch {
	case alo == ahi:
		for j := blo; j < bhi; j++ {
			d.ops = append(d.ops, op{ins, alo, j})
		}
	case blo == bhi:
		for i := alo; i < ahi; i++ {
			d.ops = append(d.ops, op{del, i, blo})
		}
	default:
		x, y, u, v, ok := d.middleSnake(alo, ahi, blo, bhi)
		if !ok {
			// Too different: replace the region wholesale.
			d.minimal = false
			for i := alo; i < ahi; i++ {
				d.ops = append(d.ops, op{del, i, blo})
			}
			for j := blo; j < bhi; j++ {
				d.ops = append(d.ops, op{ins, ahi, j})
			}
			break
		}
		d.compare(alo, x, blo, y)
		for ; x < u; x, y = x+1, y+1 {
			d.ops = append(d.ops, op{keep, x, y})
		}
		d.compare(u, ahi, v, bhi)
	}
	for k := len(suffix) - 1; k >= 0; k-- {
		d.ops = append(d.ops, suffix[k])
	}
}

// middleSnake finds the middle snake of a shortest edit script between
// a[alo:ahi] and b[blo:bhi], both non-empty and differing at both ends:
// the diagonal run (x,y)–(u,v) of matches that a shortest path crosses
// halfway. It gives up (ok false) beyond maxEdits differences.
func (d *differ) middleSnake(alo, ahi, blo, bhi int) (x, y, u, v int, ok bool) {
	n, m := ahi-alo, bhi-blo
	delta := n - m
	odd := delta&1 != 0
	limit := (n + m + 1) / 2
	if limit > maxEdits {
		limit = maxEdits
	}
	size := 2*limit + 3
	if cap(d.vf) < size {
		d.vf, d.vb = make([]int, size), make([]int, size)
	}
	vf, vb := d.vf[:size], d.vb[:size]
	off := limit + 1
	vf[off+1], vb[off+1] = 0, 0
	for dd := 0; dd <= limit; dd++ {
		// Forward paths on diagonals k = x - y.
		for k := -dd; k <= dd; k += 2 {
			var px int
			if k == -dd || k != dd && vf[off+k-1] < vf[off+k+1] {
				px = vf[off+k+1]
			} else {
				px = vf[off+k-1] + 1
			}
			py := px - k
			sx, sy := px, py
			for px < n && py < m && d.a[alo+px] == d.b[blo+py] {
				px++
				py++
			}
			vf[off+k] = px
			if c := delta - k; odd && c >= -(dd-1) && c <= dd-1 && px+vb[off+c] >= n {
				return alo + sx, blo + sy, alo + px, blo + py, true
			}
		}
		// Backward paths, on the reversed sequences, diagonals c.
		for c := -dd; c <= dd; c += 2 {
			var px int
			if c == -dd || c != dd && vb[off+c-1] < vb[off+c+1] {
				px = vb[off+c+1]
			} else {
				px = vb[off+c-1] + 1
			}
			py := px - c
			sx, sy := px, py
			for px < n && py < m && d.a[ahi-1-px] == d.b[bhi-1-py] {
				px++
				py++
			}
			vb[off+c] = px
			if k := delta - c; !odd && k >= -dd && k <= dd && px+vf[off+k] >= n {
				return ahi - px, bhi - py, ahi - sx, bhi - sy, true
			}
		}
	}
	return 0, 0, 0, 0, false
}
