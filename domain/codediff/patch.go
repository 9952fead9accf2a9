package codediff

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/wynot/wynot/domain/decomp"
)

// Patch renders the changes at the sorted indices c as a unified diff in
// git's format ("a/" and "b/" prefixes) that applies to the old tree with
// git apply, or, for text files, with patch -p1. The hunks of a text file
// are shown with three lines of context, each as it was made, not diffed
// afresh (a line edit that deletes one of two equal lines shows that
// one).
func (s *Set) Patch(c []int) string {
	byPath := map[string][]int{}
	var paths []string
	for _, i := range c {
		p := s.Changes[i].Path
		if _, ok := byPath[p]; !ok {
			paths = append(paths, p)
		}
		byPath[p] = append(byPath[p], i)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		idx := byPath[p]
		first := &s.Changes[idx[0]]
		switch first.Kind {
		case Hunk:
			on := make(map[int]bool, len(idx))
			for _, i := range idx {
				on[i] = true
			}
			of := s.Old.Files[p]
			cf := s.file(p, s.byPath[p], on)
			if of == nil {
				// Parts of an added file (Refine): a new file holding them.
				fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode %o\n", p, p, 0o100000|cf.Mode.Perm())
				writeWhole(&b, p, nil, cf)
				continue
			}
			fmt.Fprintf(&b, "diff --git a/%s b/%s\n", p, p)
			b.WriteString(hunkScript(of, s.Changes, idx).Unified("a/"+p, "b/"+p, 3))
		case Add:
			f := s.New.Files[p]
			fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode %o\n", p, p, 0o100000|f.Mode.Perm())
			writeWhole(&b, p, nil, f)
		case Delete:
			f := s.Old.Files[p]
			fmt.Fprintf(&b, "diff --git a/%s b/%s\ndeleted file mode %o\n", p, p, 0o100000|f.Mode.Perm())
			writeWhole(&b, p, f, nil)
		case Rename:
			fmt.Fprintf(&b, "diff --git a/%s b/%s\nsimilarity index 100%%\nrename from %s\nrename to %s\n", first.From, p, first.From, p)
		case Replace:
			of, nf := s.Old.Files[p], s.New.Files[p]
			fmt.Fprintf(&b, "diff --git a/%s b/%s\n", p, p)
			if of.Mode != nf.Mode {
				fmt.Fprintf(&b, "old mode %o\nnew mode %o\n", modeBits(of), modeBits(nf))
			}
			if !bytes.Equal(of.Data, nf.Data) || of.Link != nf.Link {
				fmt.Fprintf(&b, "Binary files a/%s and b/%s differ\n", p, p)
			}
		}
	}
	return b.String()
}

func modeBits(f *File) uint32 {
	if f.Link != "" {
		return 0o120000
	}
	return 0o100000 | uint32(f.Mode.Perm())
}

// writeWhole writes a file added (of nil) or deleted (nf nil) as a hunk.
func writeWhole(b *strings.Builder, p string, of, nf *File) {
	from, to := "a/"+p, "b/"+p
	var data []byte
	sign := "+"
	if nf == nil {
		to, data, sign = "/dev/null", of.Data, "-"
	} else {
		from, data = "/dev/null", nf.Data
	}
	fmt.Fprintf(b, "--- %s\n+++ %s\n", from, to)
	if len(data) == 0 {
		return
	}
	lines := splitLines(data)
	if sign == "+" {
		fmt.Fprintf(b, "@@ -0,0 +1,%d @@\n", len(lines))
	} else {
		fmt.Fprintf(b, "@@ -1,%d +0,0 @@\n", len(lines))
	}
	for _, l := range lines {
		b.WriteString(sign)
		b.Write(l)
		if l[len(l)-1] != '\n' {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkScript is the edit script of the hunks idx (in order) of an old
// file: each replaces its old lines by its new ones.
func hunkScript(of *File, changes []Change, idx []int) *decomp.Script {
	p := decomp.Pieces{Data: of.Data, Cuts: []int{0}}
	for _, l := range splitLines(of.Data) {
		p.Cuts = append(p.Cuts, p.Cuts[len(p.Cuts)-1]+len(l))
	}
	reps := make([]decomp.Replacement, len(idx))
	for k, i := range idx {
		c := &changes[i]
		reps[k] = decomp.Replacement{At: c.OldStart, Del: len(c.Old), Ins: c.New}
	}
	return decomp.Replace(p, reps)
}
