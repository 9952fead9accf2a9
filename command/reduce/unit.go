package reduce

import (
	"bytes"
	"fmt"
	"slices"
	"sync"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/runner"
)

// unit is what one pass reduces: one input, or, in a tree, files of a
// language's unit (syntax.Unit) as one text (a decomp.Bundle), so that a
// change can span them: the Go files of one directory, where a name is
// shortened at its declaration and at every use in the package's other
// files, a parameter removed with the argument at calls in other files,
// a declaration deleted with the statements that use it wherever they
// are; a Go module's go.mod, go.sum and vendor/modules.txt, whose pass
// removes a requirement with its checksums and vendor entry.
//
// A unit is a view of the reducer's inputs (shrinkray's View): its text
// as it is now (a bundle's is made once, and again only after one of the
// inputs changed), the candidate of another text of it, and how a
// smaller failing text of it is taken.
type unit struct {
	rd      *reducer
	name    string // in logs: the input's name, or the language's unit's
	members []int  // the inputs, by index into the reducer's
	bundle  bool
	lang    syntax.Tree // the language whose unit it is, for a bundle
	su      syntax.Unit
	depth   int      // of the entries of a tree the entries phase's unit stands for
	text    *bundled // a bundle's text, as last made
}

// bundled is a bundle's text and the generation of the inputs
// (reducer.gen) it was made of.
type bundled struct {
	mu   sync.Mutex
	gen  uint64
	data []byte
}

// single is the unit of input fi alone.
func (rd *reducer) single(fi int) unit {
	return unit{rd: rd, name: rd.ins[fi].Name, members: []int{fi}}
}

// treeUnits are the units of the tree passes, in the order of their
// first input: each of a language's groups (a Go package: one
// directory's Go files) as a bundle, every other input present on its
// own; then the languages' further units (each Go module's go.mod with
// its go.sum and vendor/modules.txt).
func (rd *reducer) treeUnits() []unit {
	var us []unit
	type group struct {
		lang string
		key  string
	}
	groups := map[group]int{} // → index into us
	for fi, in := range rd.ins {
		if in.Removed || in.whole {
			continue
		}
		lt := rd.langTree(in) // its language bundles it with its unit
		if lt == nil {
			us = append(us, rd.single(fi))
			continue
		}
		key, name := lt.Group(in.Name)
		g := group{in.syn.Lang, key}
		if k, ok := groups[g]; ok {
			us[k].members = append(us[k].members, fi)
			us[k].su.Files = append(us[k].su.Files, in.Name)
			continue
		}
		groups[g] = len(us)
		us = append(us, unit{rd: rd, name: name, members: []int{fi}, bundle: true, lang: lt,
			su: syntax.Unit{Name: name, Files: []string{in.Name}}, text: &bundled{}})
	}
	return append(us, rd.extraUnits()...)
}

// extraUnits are the languages' further units of a tree (syntax.Tree's
// Units), those whose text can be bundled.
func (rd *reducer) extraUnits() []unit {
	if rd.tree == nil {
		return nil
	}
	byName := map[string]int{}
	for fi, in := range rd.ins {
		byName[in.Name] = fi
	}
	files := rd.files(false)
	var us []unit
	for _, lt := range rd.tree.langs {
		for _, su := range lt.Units(files) {
			u := unit{rd: rd, name: su.Name, bundle: true, lang: lt, su: su, text: &bundled{}}
			for _, name := range su.Files {
				u.members = append(u.members, byName[name])
			}
			if !slices.ContainsFunc(u.members, func(k int) bool { return bytes.IndexByte(rd.ins[k].Data, 0) >= 0 }) {
				us = append(us, u) // text with a NUL byte cannot be bundled
			}
		}
	}
	return us
}

// data is the unit's text as it is now.
func (u unit) data() []byte {
	rd := u.rd
	if !u.bundle {
		return rd.ins[u.members[0]].Data
	}
	u.text.mu.Lock()
	defer u.text.mu.Unlock()
	gen := rd.gen.Load()
	if u.text.data != nil && u.text.gen == gen {
		return u.text.data
	}
	fs := make([]decomp.File, len(u.members))
	for i, fi := range u.members {
		fs[i] = decomp.File{Name: rd.ins[fi].Name, Data: rd.ins[fi].Data}
	}
	b, err := decomp.Bundle(fs)
	if err != nil {
		panic(err) // Go files that parse hold no NUL byte
	}
	u.text.gen, u.text.data = gen, b
	return b
}

// contents splits a text of the unit into its inputs' contents.
func (u unit) contents(data []byte) (map[int][]byte, error) {
	if !u.bundle {
		return map[int][]byte{u.members[0]: data}, nil
	}
	datas, err := decomp.UnbundleAs(data, u.su.Files)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.name, err)
	}
	m := map[int][]byte{}
	for i, fi := range u.members {
		m[fi] = datas[i]
	}
	return m, nil
}

// candidate is the candidate with the unit holding data.
func (u unit) candidate(data []byte) runner.Candidate {
	rd := u.rd
	if !u.bundle {
		return rd.candidate(u.members[0], data)
	}
	m, err := u.contents(data)
	if err != nil {
		panic(err) // the bundle's passes keep its files
	}
	return rd.treeCandidate(m, nil)
}

// improve records a smaller failing text of the unit, as the reducer's
// improve does for an input: each of its files changed is written at
// once.
func (u unit) improve(data []byte) {
	rd := u.rd
	if !u.bundle {
		rd.improve(rd.ins[u.members[0]], data)
		return
	}
	m, err := u.contents(data)
	if err != nil {
		rd.s.SetFatal(err)
		return
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if !schedule.Simpler(data, u.data()) {
		return
	}
	var changed []*input
	for _, fi := range u.members {
		in := rd.ins[fi]
		if bytes.Equal(in.Data, m[fi]) {
			continue
		}
		in.Data, in.Dirty = m[fi], true
		rd.gen.Add(1)
		changed = append(changed, in)
	}
	rd.commitLocked(changed)
}

// passes are the tree passes of a unit (those of passList for an
// input on its own; for a bundle, its language's: Go's over a package
// as a whole, type-checked with the tree around it when type checks are
// on) and its text passes (none for a bundle: its files have their own).
func (u unit) passes() (tree, text []decomp.Pass, err error) {
	rd := u.rd
	if !u.bundle {
		return rd.passList(rd.ins[u.members[0]])
	}
	data := u.data()
	tree, err = u.lang.Passes(u.su, data, rd.nowFiles)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", u.name, err)
	}
	return tree, nil, nil
}

// passList lists the passes of one round over input in (split.Passes),
// a file of a tree prepared with the tree as it is now (a Go file is
// type-checked with its package, and the packages that import it); a
// file bundled with its language's unit has its tree passes with the
// unit (unit.passes).
func (rd *reducer) passList(in *input) (tree, text []decomp.Pass, err error) {
	t := rd.langTree(in)
	if t != nil {
		if syn := t.File(in.Name, in.Data, rd.nowFiles); syn != nil {
			in.syn = syn
		}
	}
	var finish func([]byte) ([]byte, error)
	if in.syn == nil {
		finish = rd.textFinish(in)
	}
	tree, text, err = rd.Split.Passes(in.syn, in.Data, t == nil, finish)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	return tree, text, nil
}

// textFinish is what predicts the candidates of the text passes over an
// input in no language that a language of the tree knows of (a Go
// module's go.mod, go.sum or vendor/modules.txt: Tree.Finish), or nil.
func (rd *reducer) textFinish(in *input) func([]byte) ([]byte, error) {
	if rd.tree == nil {
		return nil
	}
	for _, t := range rd.tree.langs {
		if fin := t.Finish(in.Name, in.Data, rd.nowFiles); fin != nil {
			return fin
		}
	}
	return nil
}

// label is how the unit is named in a pass's statistics (none for the
// only input).
func (u unit) label() string {
	if len(u.rd.ins) > 1 || u.bundle {
		return u.name
	}
	return ""
}

// textUnits are the inputs present that text passes cut, each alone.
func (rd *reducer) textUnits() []unit {
	var us []unit
	for fi, in := range rd.ins {
		if !in.Removed && !in.whole {
			us = append(us, rd.single(fi))
		}
	}
	return us
}

// size is the size of the unit's inputs now.
func (u unit) size() int {
	n := 0
	for _, fi := range u.members {
		n += len(u.rd.ins[fi].Data)
	}
	return n
}
