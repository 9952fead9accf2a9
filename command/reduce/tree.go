package reduce

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/filetree"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/syntax"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// dirTree is a directory reduced as a whole (wynot reduce DIR): its
// files are the reducer's inputs, named by their slash-separated paths
// in the tree. Every test gets a private copy of the tree in its work
// directory (which "{}" names and the test runs in), brought from one
// candidate to the next by writing only the files that differ.
type dirTree struct {
	ws *filetree.Workspaces
	// result is DIR as given, what it held (Base), where the result
	// tree goes, and the original kept when DIR is reduced in place.
	result *keep.Tree
	// langs are the languages' views of the tree (syntax.Language.Tree),
	// in the table's order, and by name in byLang: what bundles their
	// files into units, and their context, read once from the original
	// (Go: the export data of the modules' requirements and the
	// standard library, go list -export).
	langs  []syntax.Tree
	byLang map[string]syntax.Tree
	// layer is the smallest failing tree so far, over the original
	// (with the files of --with), which every candidate is made over:
	// a candidate is a few files in place of the layer's, so that it
	// costs those, not the tree (filetree.Layer). A new one is made at
	// every improvement (relayer); guarded by the reducer's mu.
	layer *filetree.Layer
}

// openTree reads the directory p as the input of a reduction
// (keep.OpenTree) and the files of the languages it knows as theirs.
func (r *Reduction) openTree(ctx context.Context, p string) ([]*input, *dirTree, error) {
	res, es, notes, err := keep.OpenTree(p, r.Output)
	for _, n := range notes {
		say(r.Out, "%s", n)
	}
	if err != nil {
		return nil, nil, command.InputError("%v", err)
	}
	t := &dirTree{ws: filetree.NewWorkspaces(res.Base()), result: res}
	var ins []*input
	var unparsed []string
	var absent absentLangs
	var links []string // what to say of links out of the tree
	// Parsing and type-checking a large tree takes seconds: an
	// interruption does not wait for it.
	err = prepare(ctx, func() {
		for _, e := range es {
			in := &input{Entry: e}
			switch {
			case e.Link != "":
				in.whole = true
				if filetree.Escapes(e.Name, e.Link) {
					links = append(links, fmt.Sprintf("%s is a symbolic link to %s, outside the tree: it is not followed, and every test gets the link as it is", keep.Quote(in.Path), keep.Quote(e.Link)))
				}
			case filetree.Binary(e.Data) || len(e.Data) == 0:
				in.whole = true // removed as a whole, never cut
			default:
				if lang := r.Split.TreeLangOf(e.Name); lang != "" {
					if err := r.parse(in, lang); err != nil {
						unparsed = append(unparsed, e.Name)
					}
				} else if a, ok := r.Split.Absent(e.Name); ok {
					absent.add(a, e.Name)
				}
			}
			ins = append(ins, in)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	for _, n := range links {
		say(r.Out, "%s", n)
	}
	if err := r.room(t); err != nil {
		return nil, nil, err
	}
	if err := r.treeLangs(ctx, t, ins); err != nil {
		return nil, nil, err
	}
	if len(unparsed) > 0 {
		say(r.Out, "%s in %s do not parse in their language (%s): they are reduced as text", report.Plural(len(unparsed), "file"), keep.Quote(p), command.List(unparsed, 5))
	}
	absent.say(r.Out)
	return ins, t, nil
}

// treeLangs asks each language of the table for its view of the tree
// (syntax.Language.Tree), handing it the tree's files and a way to run
// what it needs to learn its context, and says what it notes. When ctx
// ends meanwhile it returns ctx's error at once, and says nothing of
// what the interruption cut short (go list -export killed).
func (r *Reduction) treeLangs(ctx context.Context, t *dirTree, ins []*input) error {
	files := map[string][]byte{}
	for rel, f := range t.result.Base().Files {
		if f.Link == "" {
			files[rel] = f.Data
		}
	}
	abs, _ := filepath.Abs(t.result.Path) // it was read from there
	exec := func(argv []string) ([]byte, error) {
		c := runner.Command{Argv: argv, Timeout: 5 * time.Minute}
		return c.Output(ctx)
	}
	var langs []syntax.Tree
	var byLang map[string]syntax.Tree
	var notes []string
	err := prepare(ctx, func() {
		langs, byLang, notes = syntax.Trees(syntax.Dir{Root: abs, Files: files, TypeCheck: r.TypeCheck, Exec: exec},
			func(lang string) bool {
				return slices.ContainsFunc(ins, func(in *input) bool { return in.syn != nil && in.syn.Lang == lang })
			})
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	t.langs, t.byLang = langs, byLang
	for _, n := range notes {
		say(r.Out, "%s", n)
	}
	return nil
}

// prepare runs f, which works out what the reduction needs from the
// inputs (parsing, type checks, what a language learns by running
// something through the runner, which ctx stops) and changes nothing
// but what it hands back; it returns as soon as ctx ends, with ctx's
// error, without waiting for f, whose work the interrupted run drops:
// an interruption while a large tree is type-checked ends wynot at
// once rather than seconds later.
func prepare(ctx context.Context, f func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// langTree is the view of the tree of the language of input in, when
// it is reduced in one that has such a view (nil otherwise).
func (rd *reducer) langTree(in *input) syntax.Tree {
	if rd.tree == nil || in.syn == nil {
		return nil
	}
	return rd.tree.byLang[in.syn.Lang]
}

// room checks that the tests' copies of the tree fit where they go.
func (r *Reduction) room(t *dirTree) error {
	if r.Output != "" {
		return nil
	}
	size := 0
	for _, f := range t.result.Base().Files {
		size += len(f.Data)
	}
	jobs := max(r.jobs, 1)
	parent := runner.WorkDirParent(size)
	if free, ok := keep.FreeSpace(parent); ok && free < uint64(size)*uint64(jobs)+1<<20 {
		return command.InputError("the tree (%s) does not fit %s into %s, where the tests' copies go (%s free): set WYNOT_TMPDIR to a directory with more room, or lower -j",
			report.Plural(size, "byte"), report.Plural(jobs, "time"), parent, report.Plural(int(free), "byte"))
	}
	return nil
}

// treeCandidate is the tree with the inputs in changed holding their
// new data and the inputs in gone removed, besides those removed
// already: the layer of the smallest failing tree so far with those in
// place, which costs them, not the tree.
func (rd *reducer) treeCandidate(changes map[int][]byte, gone map[int]bool) runner.Candidate {
	t := rd.tree
	rd.mu.Lock()
	layer := t.layer
	rd.mu.Unlock()
	delta := make(map[string]*filetree.File, len(changes)+len(gone))
	var changed []string
	for _, i := range slices.Sorted(maps.Keys(changes)) {
		in := rd.ins[i]
		now := layer.File(in.Name)
		if gone[i] || now == nil {
			continue // removed: it stays so
		}
		d := changes[i]
		if !bytes.Equal(d, now.Data) {
			changed = append(changed, in.Name)
		}
		delta[in.Name] = &filetree.File{Data: d, Mode: in.Mode}
	}
	for i := range gone {
		delta[rd.ins[i].Name] = nil
	}
	label := fmt.Sprintf("tree of %d of %s", layer.Present(delta), report.Plural(len(rd.ins), "file"))
	if len(changed) > 0 {
		label += ", " + command.List(changed, 3) + " changed"
	}
	return runner.Candidate{
		Files: []runner.File{{Name: "\x00tree", Data: layer.Identity(delta)}},
		Setup: func(dir string) error { return command.RoomHint(t.ws.SyncOver(dir, layer, delta), dir) },
		Label: label,
	}
}

// relayerAll makes the layer of the tree anew from every input as it is
// now (at the start, after a restart), with the files of --with. The
// caller holds rd.mu.
func (rd *reducer) relayerAll() {
	if rd.tree == nil {
		return
	}
	with := map[string]*filetree.File{}
	for _, w := range rd.with {
		with[w.Name] = &filetree.File{Data: w.Data, Mode: 0o644}
	}
	rd.tree.layer = filetree.NewLayer(rd.tree.result.Base(), with)
	rd.relayer(rd.ins)
}

// relayer makes the layer of the tree hold the inputs in changed as
// they are now (removed, or their data). The caller holds rd.mu.
func (rd *reducer) relayer(changed []*input) {
	t := rd.tree
	if t == nil || len(changed) == 0 {
		return
	}
	delta := make(map[string]*filetree.File, len(changed))
	for _, in := range changed {
		delta[in.Name] = nil
		if !in.Removed {
			delta[in.Name] = &filetree.File{Data: in.Data, Mode: in.Mode, Link: in.Link}
		}
	}
	t.layer = t.layer.With(delta)
}

// paths are the inputs' names, "" for those removed.
func (rd *reducer) paths() []string {
	ps := make([]string, len(rd.ins))
	for i, in := range rd.ins {
		if !in.Removed {
			ps[i] = in.Name
		}
	}
	return ps
}

// entryPass removes whole files and directories at depth d of the tree:
// ddmin over them (Hierarchical Delta Debugging, ICSE 2006, over the
// directory tree: the entries at one depth, top first, are the changes
// of one pass). It reports, like pass, whether the search completed,
// whether the tree shrank, and the pass's statistics.
func (rd *reducer) entryPass(ctx context.Context, d int) (schedule.Ran, error) {
	s := rd.s
	names, members := filetree.Entries(rd.paths(), d)
	if len(names) < 2 {
		// ddmin removes nothing of a single entry: the empty tree is
		// not a candidate.
		return schedule.Ran{Minimal: true}, nil
	}
	name := entries(d).Name()
	before, files0 := rd.size(), rd.present()
	s.Status(func(st *report.Status) { st.Pass, st.Granularity = name, 0 })
	s.Logf("Pass %s: %d files and directories\n", name, len(names))
	st0 := s.Stats()
	t0 := time.Now()
	gone := func(c dd.Config) map[int]bool { // the inputs of the entries c leaves out
		g := map[int]bool{}
		for _, u := range names {
			for _, i := range members[u] {
				g[i] = true
			}
		}
		for _, x := range c {
			for _, i := range members[names[x]] {
				delete(g, i)
			}
		}
		return g
	}
	res, err := s.Search(ctx, command.Search{Name: name, N: len(names), Algorithm: dd.Minimize, Options: dd.Options{Variant: rd.Variant},
		Build: func(c dd.Config) runner.Candidate { return rd.treeCandidate(nil, gone(c)) },
		OnStep: func(st dd.Step) {
			if st.Rule == dd.ReduceToSubset || st.Rule == dd.ReduceToComplement {
				rd.remove(gone(st.Config))
			}
		}})
	if res.Fail != nil {
		rd.remove(gone(res.Fail))
	}
	st1 := s.Stats()
	ran := schedule.Ran{Changes: len(names), Tests: st1.Runs - st0.Runs, Predicted: st1.Predicted - st0.Predicted,
		Before: before, After: rd.size(), Seconds: time.Since(t0).Seconds()}
	s.Logf("Pass %s done: %s, %d of %s removed\n", name, report.Plural(ran.Tests, "test"),
		files0-rd.present(), report.Plural(files0, "file"))
	if nr := command.Unreproduced(err, "the tree", ""); nr != nil {
		return ran, nr
	}
	ran.Minimal, ran.Shrank = err == nil && res.Minimal, rd.present() < files0
	return ran, err
}

// present is how many of the tree's files are still there.
func (rd *reducer) present() int {
	n := 0
	for _, in := range rd.ins {
		if !in.Removed {
			n++
		}
	}
	return n
}

// remove records that the inputs in gone are no longer part of the
// smallest failing tree, and removes them from the result tree at once.
func (rd *reducer) remove(gone map[int]bool) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	var changed []*input
	for i := range gone {
		in := rd.ins[i]
		if in.Removed {
			continue
		}
		in.Removed, in.Dirty = true, true
		changed = append(changed, in)
	}
	rd.commitLocked(changed)
}

// treeRemovals are the result with one file less, for each file: what
// 1-minimality says must not fail, besides the removals within files.
func (rd *reducer) treeRemovals() []command.Removal {
	var rs []command.Removal
	if rd.present() < 2 {
		return nil
	}
	for i, in := range rd.ins {
		if in.Removed {
			continue
		}
		gone := map[int]bool{i: true}
		rs = append(rs, command.Removal{Candidate: rd.treeCandidate(nil, gone), What: "removing " + in.Name,
			Take: func() { rd.remove(gone) }})
	}
	return rs
}

// treePage is what the report shows of a tree: each remaining file, and
// the difference from the original as one patch (removed files as
// deleted).
func (rd *reducer) treePage() report.Page {
	var res, diff strings.Builder
	for _, in := range rd.ins {
		if in.Link != "" {
			if !in.Removed {
				fmt.Fprintf(&res, "=== %s -> %s\n", in.Name, in.Link)
			}
			continue
		}
		if !in.Removed {
			fmt.Fprintf(&res, "=== %s\n%s", in.Name, in.Data)
			if len(in.Data) > 0 && in.Data[len(in.Data)-1] != '\n' {
				res.WriteByte('\n')
			}
		}
		orig, err := in.Original()
		if err != nil {
			continue
		}
		var now []byte
		if !in.Removed {
			now = in.Data
		}
		if bytes.Equal(orig, now) && !in.Removed {
			continue
		}
		to := "b/" + in.Name
		if in.Removed {
			to = "/dev/null"
		}
		diff.WriteString(decomp.UnifiedLines(orig, now, "a/"+in.Name, to, 3))
	}
	return report.Page{Result: res.String(), Diff: diff.String()}
}

// nowFiles are the tree's files as they are now, for the languages'
// views of it (syntax.Files).
func (rd *reducer) nowFiles() map[string][]byte { return rd.files(true) }

// files are the tree's files as they are now (not its symbolic links),
// for the languages' views of it; without whole, not those only ever
// removed whole (binary or empty files).
func (rd *reducer) files(whole bool) map[string][]byte {
	files := map[string][]byte{}
	for _, in := range rd.ins {
		if !in.Removed && in.Link == "" && (whole || !in.whole) {
			files[in.Name] = in.Data
		}
	}
	return files
}
