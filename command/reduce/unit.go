package reduce

import (
	"bytes"
	"fmt"
	"slices"

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
type unit struct {
	name    string // in logs: the input's name, or the language's unit's
	members []int  // the inputs, by index into the reducer's
	bundle  bool
	lang    syntax.Tree // the language whose unit it is, for a bundle
	su      syntax.Unit
	depth   int // of the entries of a tree the entries phase's unit stands for
}

// single is the unit of input fi alone.
func (rd *reducer) single(fi int) unit {
	return unit{name: rd.ins[fi].Name, members: []int{fi}}
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
		us = append(us, unit{name: name, members: []int{fi}, bundle: true, lang: lt,
			su: syntax.Unit{Name: name, Files: []string{in.Name}}})
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
			u := unit{name: su.Name, bundle: true, lang: lt, su: su}
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
func (rd *reducer) data(u unit) []byte {
	if !u.bundle {
		return rd.ins[u.members[0]].Data
	}
	fs := make([]decomp.File, len(u.members))
	for i, fi := range u.members {
		fs[i] = decomp.File{Name: rd.ins[fi].Name, Data: rd.ins[fi].Data}
	}
	b, err := decomp.Bundle(fs)
	if err != nil {
		panic(err) // Go files that parse hold no NUL byte
	}
	return b
}

// contents splits a text of the unit into its inputs' contents.
func (rd *reducer) contents(u unit, data []byte) (map[int][]byte, error) {
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

// unitCandidate is the candidate with the unit holding data.
func (rd *reducer) unitCandidate(u unit, data []byte) runner.Candidate {
	if !u.bundle {
		return rd.candidate(u.members[0], data)
	}
	m, err := rd.contents(u, data)
	if err != nil {
		panic(err) // the bundle's passes keep its files
	}
	return rd.treeCandidate(m, nil)
}

// improveUnit records a smaller failing text of the unit, as improve
// does for an input: each of its files changed is written at once.
func (rd *reducer) improveUnit(u unit, data []byte) {
	if !u.bundle {
		rd.improve(rd.ins[u.members[0]], data)
		return
	}
	m, err := rd.contents(u, data)
	if err != nil {
		rd.s.SetFatal(err)
		return
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if !schedule.Simpler(data, rd.data(u)) {
		return
	}
	var changed []*input
	for _, fi := range u.members {
		in := rd.ins[fi]
		if bytes.Equal(in.Data, m[fi]) {
			continue
		}
		in.Data, in.Dirty = m[fi], true
		changed = append(changed, in)
	}
	rd.commitLocked(changed)
}

// unitPasses are the tree passes of a unit (those of passList for an
// input on its own; for a bundle, its language's: Go's over a package
// as a whole, type-checked with the tree around it when type checks are
// on) and its text passes (none for a bundle: its files have their own).
func (rd *reducer) unitPasses(u unit) (tree, text []decomp.Pass, err error) {
	if !u.bundle {
		return rd.passList(rd.ins[u.members[0]])
	}
	data := rd.data(u)
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
// unit (unitPasses).
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
func (rd *reducer) label(u unit) string {
	if len(rd.ins) > 1 || u.bundle {
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

// unitSize is the size of the unit's inputs now.
func (rd *reducer) unitSize(u unit) int {
	n := 0
	for _, fi := range u.members {
		n += len(rd.ins[fi].Data)
	}
	return n
}
