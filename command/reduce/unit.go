package reduce

import (
	"bytes"
	"fmt"
	"path"
	"slices"

	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/domain/syntax/golang"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// unit is what one pass reduces: one input, or, in a tree, the Go files
// of one directory as one text (a decomp.Bundle), so that a change can
// span them: a name shortened at its declaration and at every use in
// the package's other files, a parameter removed with the argument at
// calls in other files, a declaration deleted with the statements that
// use it wherever they are.
//
// A module's go.mod, go.sum and vendor/modules.txt make one more bundle,
// whose pass removes a requirement with its checksums and vendor entry.
type unit struct {
	name    string // in logs: the input's name, or the package's directory and "/*.go"
	members []int  // the inputs, by index into the reducer's
	bundle  bool
	module  bool // a module's go.mod and the files that must agree with it
}

// single is the unit of input fi alone.
func (rd *reducer) single(fi int) unit {
	return unit{name: rd.ins[fi].name, members: []int{fi}}
}

// bundled says whether input in is reduced by its tree passes as part of
// its package's bundle: a Go file of a tree.
func (rd *reducer) bundled(in *input) bool {
	return rd.tree != nil && in.syn != nil && in.syn.Lang == "go"
}

// treeUnits are the units of the tree passes, in the order of their
// first input: each tree's Go package (one directory's Go files) as a
// bundle, every other input present on its own; then each module's
// go.mod with its go.sum and vendor/modules.txt.
func (rd *reducer) treeUnits() []unit {
	var us []unit
	pkg := map[string]int{} // directory → index into us
	for fi, in := range rd.ins {
		if in.removed || in.whole {
			continue
		}
		if !rd.bundled(in) {
			us = append(us, rd.single(fi))
			continue
		}
		dir := path.Dir(in.name)
		if k, ok := pkg[dir]; ok {
			us[k].members = append(us[k].members, fi)
			continue
		}
		pkg[dir] = len(us)
		name := dir + "/*.go"
		if dir == "." {
			name = "*.go"
		}
		us = append(us, unit{name: name, members: []int{fi}, bundle: true})
	}
	return append(us, rd.moduleUnits()...)
}

// moduleUnits are the bundles of each module of a tree: its go.mod,
// go.sum and vendor/modules.txt, those present.
func (rd *reducer) moduleUnits() []unit {
	if rd.tree == nil {
		return nil
	}
	byName := map[string]int{}
	for fi, in := range rd.ins {
		if !in.removed && !in.whole && in.link == "" {
			byName[in.name] = fi
		}
	}
	var us []unit
	for fi, in := range rd.ins {
		if in.removed || in.whole || in.link != "" || path.Base(in.name) != "go.mod" {
			continue
		}
		u := unit{name: in.name, members: []int{fi}, bundle: true, module: true}
		dir := path.Dir(in.name)
		for _, other := range []string{"go.sum", "vendor/modules.txt"} {
			if k, ok := byName[path.Join(dir, other)]; ok {
				u.members = append(u.members, k)
				u.name += ", " + rd.ins[k].name
			}
		}
		if !slices.ContainsFunc(u.members, func(k int) bool { return bytes.IndexByte(rd.ins[k].data, 0) >= 0 }) {
			us = append(us, u) // text with a NUL byte cannot be bundled
		}
	}
	return us
}

// data is the unit's text as it is now.
func (rd *reducer) data(u unit) []byte {
	if !u.bundle {
		return rd.ins[u.members[0]].data
	}
	fs := make([]decomp.File, len(u.members))
	for i, fi := range u.members {
		fs[i] = decomp.File{Name: rd.ins[fi].name, Data: rd.ins[fi].data}
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
	fs, err := decomp.Unbundle(data)
	if err != nil {
		return nil, err
	}
	if len(fs) != len(u.members) {
		return nil, fmt.Errorf("%s: %d files in a bundle of %d", u.name, len(fs), len(u.members))
	}
	m := map[int][]byte{}
	for i, fi := range u.members {
		if fs[i].Name != rd.ins[fi].name {
			return nil, fmt.Errorf("%s: %s in the place of %s", u.name, fs[i].Name, rd.ins[fi].name)
		}
		m[fi] = fs[i].Data
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
		if bytes.Equal(in.data, m[fi]) {
			continue
		}
		in.data, in.dirty = m[fi], true
		changed = append(changed, in)
	}
	rd.writeTreeLocked(changed)
	size := rd.size()
	rd.s.Progress.Update(func(st *report.Status) { st.Size = size })
}

// unitPasses are the tree passes of a unit (those of passList for an
// input on its own; for a bundle, Go's over the package as a whole,
// type-checked with the tree around it when type checks are on) and
// its text passes (none for a bundle: its files have their own).
func (rd *reducer) unitPasses(u unit) (tree, text []decomp.Pass, err error) {
	if !u.bundle {
		return rd.passList(rd.ins[u.members[0]])
	}
	data := rd.data(u)
	if u.module {
		req := golang.Requirements{Finish: map[string]func([]byte) ([]byte, error){}}
		for _, fi := range u.members {
			if fin := rd.modFinish(rd.ins[fi]); fin != nil {
				req.Finish[rd.ins[fi].name] = fin
			}
		}
		return []decomp.Pass{req}, nil, nil
	}
	dir := path.Dir(rd.ins[u.members[0]].name)
	t := &golang.Tree{Dir: dir, Files: rd.goFiles(), Imports: rd.tree.imports}
	syn, err := syntax.NewIn("go", data, rd.TypeCheck, t)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", u.name, err)
	}
	tree, err = syn.Passes(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", u.name, err)
	}
	return tree, nil, nil
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
		if !in.removed && !in.whole {
			us = append(us, rd.single(fi))
		}
	}
	return us
}

// unitSize is the size of the unit's inputs now.
func (rd *reducer) unitSize(u unit) int {
	n := 0
	for _, fi := range u.members {
		n += len(rd.ins[fi].data)
	}
	return n
}
