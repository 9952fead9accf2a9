package codediff

import "github.com/wynot/wynot/domain/syntax"

// Refine is Compare with every added file of a language that outlines
// its declarations (syntax.Outliner) cut into the parts they make
// (declParts), each a change: refinement then keeps of a new file only
// the declarations the failure needs, with what they need to compile
// (Set.Needs, for Go), instead of the whole file. A file that does not
// parse, or makes one part, stays one change.
func Refine(old, new *Tree, context int) *Set {
	s := Compare(old, new, context)
	var out []Change
	for _, c := range s.Changes {
		if f := new.Files[c.Path]; c.Kind == Add && f.Link == "" && f.Mode.IsRegular() {
			if parts := declParts(c.Path, f.Data, syntax.OutlineOf(c.Path, f.Data)); len(parts) > 1 {
				out = append(out, parts...)
				continue
			}
		}
		out = append(out, c)
	}
	s.Changes = out
	s.index()
	return s
}

// declParts cuts an added file into parts by its outline, each a hunk of
// a file the old tree does not have (NewFile): a part from each
// declaration's start to the next one's. The lines before the first
// declaration, and the declarations the outline marks Header (in Go the
// package clause and the lines of an import block around its specs, "import
// (" and ")"), are header parts, which every other part needs (Header);
// a container's first and last lines (a C++ namespace's) are header parts
// its members need (Opens, Within). An
// empty Go import block is still Go, so any subset of the specs compiles
// as far as the header goes. It returns nil when the file does not
// parse (no outline) or a part would share a line with another.
func declParts(p string, data []byte, decls []syntax.Decl) []Change {
	if decls == nil {
		return nil
	}
	type cut struct {
		start       int
		header      bool
		opens, with string
	}
	var cuts []cut
	if decls[0].Start > 0 {
		cuts = append(cuts, cut{start: 0, header: true})
	}
	for _, d := range decls {
		c := cut{d.Start, d.Header, d.Of, d.In}
		switch n := len(cuts); {
		case n == 0:
			cuts = append(cuts, c)
		case d.Start == cuts[n-1].start && cuts[n-1].header && !d.Header && n > 1:
			cuts[n-1] = c // the header part between two imports is empty
		case d.Start <= cuts[n-1].start:
			return nil
		default:
			cuts = append(cuts, c)
		}
	}
	lines := splitLines(data)
	var parts []Change
	for i, c := range cuts {
		end := len(lines)
		if i+1 < len(cuts) {
			end = cuts[i+1].start
		}
		if end <= c.start || c.start >= len(lines) {
			continue
		}
		parts = append(parts, Change{Kind: Hunk, Path: p, NewFile: true, Header: c.header, Opens: c.opens, Within: c.with, NewStart: c.start, New: lines[c.start:end]})
	}
	return parts
}

// fileNeeds adds, for each added file cut into parts, that every part
// needs the file's header parts (the package clause and the import
// lines around the specs), and a container's members its first and last
// lines, which need each other (through them, the containers around
// it).
func (s *Set) fileNeeds(add func(i, j int)) {
	for _, idx := range s.byPath {
		for _, h := range idx {
			if c := &s.Changes[h]; c.NewFile && c.Header {
				for _, i := range idx {
					if o := &s.Changes[i]; c.Opens == "" || o.Within == c.Opens || o.Opens == c.Opens {
						add(i, h)
					}
				}
			}
		}
	}
}
