package reduce

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
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
	path string         // DIR as given
	base *filetree.Tree // what it held
	ws   *filetree.Workspaces
	// result is where the result tree goes, and the original kept
	// when DIR is reduced in place.
	result *keep.Tree
	// langs are the languages' views of the tree (syntax.Language.Tree),
	// in the table's order, and by name in byLang: what bundles their
	// files into units, and their context, read once from the original
	// (Go: the export data of the modules' requirements and the
	// standard library, go list -export).
	langs  []syntax.Tree
	byLang map[string]syntax.Tree
}

// openTree reads the directory p as the input of a reduction.
func (r *Reduction) openTree(ctx context.Context, p string) ([]*input, *dirTree, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, nil, command.InputError("input %s: %v", p, err)
	}
	if cwd, err := os.Getwd(); err == nil && keep.Within(cwd, abs) && r.Output == "" {
		return nil, nil, command.InputError("input %s is the current directory, or holds it: reducing it in place would change the directory wynot runs in and put its copy of the original beside it; run wynot from outside the tree, or give -o DIR for the result", p)
	}
	if note, err := keep.FinishPending(p); err != nil {
		return nil, nil, command.InputError("%v", err)
	} else if note != "" {
		say(r.Out, "%s", note)
	}
	base, err := filetree.ReadTree(abs)
	if err != nil {
		return nil, nil, command.InputError("reading the tree %s: %v", p, keep.UnwrapPath(err))
	}
	if len(base.Files) == 0 {
		return nil, nil, command.InputError("input %s holds no files: nothing to reduce", p)
	}
	for _, vcs := range []string{".git", ".hg", ".svn"} {
		if _, err := os.Lstat(filepath.Join(abs, vcs)); err == nil {
			say(r.Out, "%s is left out of the tests and of the reduction", filepath.Join(p, vcs))
		}
	}
	t := &dirTree{path: p, base: base, ws: filetree.NewWorkspaces(base)}
	var ins []*input
	var unparsed []string
	for _, rel := range base.Paths() {
		f := base.Files[rel]
		in := &input{File: keep.NewFile(filepath.Join(p, filepath.FromSlash(rel)), rel, f.Data, f.Mode), data: f.Data}
		switch {
		case f.Link != "":
			in.link, in.whole = f.Link, true
			if escapes(rel, f.Link) {
				say(r.Out, "%s is a symbolic link to %s, outside the tree: it is not followed, and every test gets the link as it is", in.Path, f.Link)
			}
		case filetree.Binary(f.Data) || len(f.Data) == 0:
			in.whole = true // removed as a whole, never cut
		default:
			if lang := r.treeLang(rel); lang != "" {
				if err := r.parse(in, lang); err != nil {
					unparsed = append(unparsed, rel)
				}
			}
		}
		ins = append(ins, in)
	}
	r.treeLangs(ctx, t, abs, ins)
	if len(unparsed) > 0 {
		say(r.Out, "%s in %s do not parse in their language (%s): they are reduced as text", report.Plural(len(unparsed), "file"), p, command.List(unparsed, 5))
	}
	if err := r.treeDestination(t, abs); err != nil {
		return nil, nil, err
	}
	for _, in := range ins {
		in.Dest = filepath.Join(t.result.Dest, filepath.FromSlash(in.Name))
	}
	return ins, t, nil
}

// treeLangs asks each language of the table for its view of the tree
// (syntax.Language.Tree), handing it the tree's files and a way to run
// what it needs to learn its context, and says what it notes.
func (r *Reduction) treeLangs(ctx context.Context, t *dirTree, abs string, ins []*input) {
	files := map[string][]byte{}
	for rel, f := range t.base.Files {
		if f.Link == "" {
			files[rel] = f.Data
		}
	}
	t.byLang = map[string]syntax.Tree{}
	for _, l := range syntax.Languages() {
		parsed := slices.ContainsFunc(ins, func(in *input) bool { return in.syn != nil && in.syn.Lang == l.Name() })
		lt, notes := l.Tree(syntax.Dir{Root: abs, Files: files, Parsed: parsed, TypeCheck: r.TypeCheck, Exec: contextExec(ctx)})
		for _, n := range notes {
			say(r.Out, "%s", n)
		}
		if lt != nil {
			t.langs = append(t.langs, lt)
			t.byLang[l.Name()] = lt
		}
	}
}

// contextExec runs, for a language's context, a command through the
// runner, for five minutes at most.
func contextExec(ctx context.Context) syntax.Exec {
	return func(argv []string) ([]byte, error) {
		c := runner.Command{Argv: argv, Timeout: 5 * time.Minute}
		run, err := c.Exec(ctx, "", nil)
		if err != nil {
			return nil, err
		}
		if !run.Clean() {
			return nil, errors.New(run.Explain())
		}
		return run.Stdout, nil
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

// treeLang is the language a file of a tree is reduced in: under auto
// the one its extension says; under go or tree:LANG that one, for the
// files whose extension says it (the other files are text).
func (r *Reduction) treeLang(rel string) string {
	ext := syntax.LangOf(rel)
	switch r.Split.Kind {
	case Auto:
		return ext
	case Go:
		if ext == "go" {
			return "go"
		}
	case Tree:
		if ext == r.Split.Lang || r.Split.Lang == "html" && strings.HasSuffix(rel, ".html") {
			return r.Split.Lang
		}
	}
	return ""
}

// escapes reports whether a symbolic link at rel with target leads
// outside the tree.
func escapes(rel, target string) bool {
	if path.IsAbs(target) {
		return true
	}
	t := path.Join(path.Dir(rel), target)
	return t == ".." || strings.HasPrefix(t, "../")
}

// treeDestination decides where the result tree goes (-o, or DIR in
// place with DIR.orig kept: keep.PlaceTree) and checks that the copies
// fit, the tests' too.
func (r *Reduction) treeDestination(t *dirTree, abs string) error {
	res, notes, err := keep.PlaceTree(t.path, abs, t.base, r.Output)
	for _, n := range notes {
		say(r.Out, "%s", n)
	}
	if err != nil {
		return command.InputError("%v", err)
	}
	t.result = res
	if r.Output != "" {
		return nil
	}
	size := 0
	for _, f := range t.base.Files {
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

// nowTree is the tree as the reduction has it now, for the lineage of
// a tree reduced in place. The caller holds rd.mu, or no other
// goroutine runs.
func (rd *reducer) nowTree() map[string]*filetree.File {
	now := map[string]*filetree.File{}
	for _, in := range rd.ins {
		if !in.removed {
			now[in.Name] = &filetree.File{Data: in.data, Mode: in.Mode, Link: in.link}
		}
	}
	return now
}

// treeCandidate is the tree with the inputs in changed holding their
// new data and the inputs in gone removed, besides those removed
// already.
func (rd *reducer) treeCandidate(changes map[int][]byte, gone map[int]bool) runner.Candidate {
	t := rd.tree
	content := map[string]*filetree.File{}
	present := 0
	var changed []string
	for i, in := range rd.ins {
		switch {
		case in.removed || gone[i]:
			content[in.Name] = nil
			continue
		case in.link != "":
		default:
			d, ok := changes[i]
			if !ok {
				d = in.data
			} else if !bytes.Equal(d, in.data) {
				changed = append(changed, in.Name)
			}
			if !bytes.Equal(d, t.base.Files[in.Name].Data) {
				content[in.Name] = &filetree.File{Data: d, Mode: in.Mode}
			}
		}
		present++
	}
	for _, w := range rd.with {
		content[w.Name] = &filetree.File{Data: w.Data, Mode: 0o644}
	}
	return runner.Candidate{
		Files: []runner.File{{Name: "\x00tree", Data: filetree.Identity(content)}},
		Setup: func(dir string) error { return command.RoomHint(t.ws.Sync(dir, content), dir) },
		Label: fmt.Sprintf("tree of %d of %s%s", present, report.Plural(len(rd.ins), "file"), changedNote(changed)),
	}
}

// changedNote names, in a candidate's label, the files it changes.
func changedNote(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ", " + command.List(names, 3) + " changed"
}

// depths is how deep the tree's present entries go (a file at the top
// is at depth 0).
func (rd *reducer) depths() int {
	n := 0
	for _, in := range rd.ins {
		if !in.removed {
			n = max(n, strings.Count(in.Name, "/")+1)
		}
	}
	return n
}

// units are the files and directories at depth d of the present tree,
// sorted, each with the inputs it holds.
func (rd *reducer) units(d int) (names []string, members map[string][]int) {
	members = map[string][]int{}
	for i, in := range rd.ins {
		if in.removed {
			continue
		}
		parts := strings.Split(in.Name, "/")
		if len(parts) <= d {
			continue
		}
		u := strings.Join(parts[:d+1], "/")
		if _, ok := members[u]; !ok {
			names = append(names, u)
		}
		members[u] = append(members[u], i)
	}
	slices.Sort(names)
	return names, members
}

// entryPass removes whole files and directories at depth d of the tree:
// ddmin over them (Hierarchical Delta Debugging, ICSE 2006, over the
// directory tree: the entries at one depth, top first, are the changes
// of one pass). It reports, like pass, whether the search completed,
// whether the tree shrank, and the pass's statistics.
func (rd *reducer) entryPass(ctx context.Context, d int) (schedule.Ran, error) {
	s := rd.s
	names, members := rd.units(d)
	if len(names) < 2 {
		// ddmin removes nothing of a single entry: the empty tree is
		// not a candidate.
		return schedule.Ran{Minimal: true}, nil
	}
	name := entries(d).Name()
	before, files0 := rd.size(), rd.present()
	s.Progress.Update(func(st *report.Status) { st.Pass, st.Granularity = name, 0 })
	s.TestLog.Printf("Pass %s: %d files and directories\n", name, len(names))
	st0 := s.Stats()
	t0 := time.Now()
	gone := func(c dd.Config) map[int]bool {
		keep := map[int]bool{}
		for _, x := range c {
			keep[x] = true
		}
		g := map[int]bool{}
		for x, u := range names {
			if !keep[x] {
				for _, i := range members[u] {
					g[i] = true
				}
			}
		}
		return g
	}
	res, err := s.SearchTests(ctx, name, len(names), dd.Minimize, dd.Options{Variant: rd.Variant},
		func(ctx context.Context, c dd.Config) (runner.Test, error) {
			return s.Test(ctx, rd.treeCandidate(nil, gone(c)))
		},
		func(st dd.Step) {
			if st.Rule == dd.ReduceToSubset || st.Rule == dd.ReduceToComplement {
				rd.remove(gone(st.Config))
			}
		})
	if res.Fail != nil {
		rd.remove(gone(res.Fail))
	}
	st1 := s.Stats()
	ran := schedule.Ran{Changes: len(names), Tests: st1.Runs - st0.Runs, Predicted: st1.Predicted - st0.Predicted,
		Before: before, After: rd.size(), Seconds: time.Since(t0).Seconds()}
	s.TestLog.Printf("Pass %s done: %s, %d of %s removed\n", name, report.Plural(ran.Tests, "test"),
		files0-rd.present(), report.Plural(files0, "file"))
	var nf *dd.NotFailingError
	if errors.As(err, &nf) {
		return ran, command.NotReproduced("the tree that failed before does not fail any more (%s); the test is flaky: try --repeat 3", nf.Outcome)
	}
	ran.Minimal, ran.Shrank = err == nil && res.Minimal, rd.present() < files0
	return ran, err
}

// present is how many of the tree's files are still there.
func (rd *reducer) present() int {
	n := 0
	for _, in := range rd.ins {
		if !in.removed {
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
		if in.removed {
			continue
		}
		in.removed, in.dirty = true, true
		changed = append(changed, in)
	}
	rd.writeTreeLocked(changed)
	size := rd.size()
	rd.s.Progress.Update(func(st *report.Status) { st.Size = size })
}

// keepTree writes the copy of the original tree (DIR.orig) before DIR
// is changed, or the result tree (-o) as a copy of the original, once
// the original's checks have passed. From then on the originals are
// read from that copy when needed.
func (rd *reducer) keepTree() error {
	if err := rd.tree.result.KeepOriginal(rd.keepFiles(), rd.nowTree()); err != nil {
		return command.InputError("%v", err)
	}
	return nil
}

// dropTreeBackup removes the copy of the original when DIR was left as
// it was: nothing smaller fails.
func (rd *reducer) dropTreeBackup() { rd.tree.result.DropBackup(rd.treeChanged(), rd.keepFiles()) }

// keepFiles are the inputs as keep knows them.
func (rd *reducer) keepFiles() []*keep.File {
	fs := make([]*keep.File, len(rd.ins))
	for i, in := range rd.ins {
		fs[i] = in.File
	}
	return fs
}

// treeChanged says whether the result tree differs from the original.
func (rd *reducer) treeChanged() bool {
	return slices.ContainsFunc(rd.ins, func(in *input) bool {
		return in.removed || in.link == "" && !bytes.Equal(in.data, rd.tree.base.Files[in.Name].Data)
	})
}

// treeRemovals are the result with one file less, for each file: what
// 1-minimality says must not fail, besides the removals within files.
func (rd *reducer) treeRemovals() []command.Removal {
	var rs []command.Removal
	if rd.present() < 2 {
		return nil
	}
	for i, in := range rd.ins {
		if in.removed {
			continue
		}
		rs = append(rs, command.Removal{Candidate: rd.treeCandidate(nil, map[int]bool{i: true}), What: "removing " + in.Name})
	}
	return rs
}

// treeClosing is what wynot reduce says at the end of a directory's
// reduction (Close has filled in the summary's shared part).
func (rd *reducer) treeClosing(sum *report.Summary, end command.End) command.Closing {
	t := rd.tree
	files0, files := len(rd.ins), rd.present()
	sum.Result = t.result.Dest
	pct := 100 * float64(sum.SizeAfter) / float64(max(sum.SizeBefore, 1))
	c := command.Closing{Page: rd.treePage}
	c.Head = []string{fmt.Sprintf("reduced %s from %s (%s) to %s (%s, %s) in %s%s, %.1fs", t.path,
		report.Plural(files0, "file"), report.Plural(sum.SizeBefore, "byte"), report.Plural(files, "file"),
		report.Plural(sum.SizeAfter, "byte"), report.Percent(pct), report.Plural(sum.Tests, "test"), rd.predictedNote(sum), sum.Seconds)}
	var v string
	switch {
	case end.Interrupted:
		v = "interrupted: the result is the smallest failing tree found so far, not 1-minimal"
	case end.Minimal:
		v = "the result is 1-minimal: removing any single one of its files, or making any single one of the changes its files' passes offer (syntax tree transformations, lines, tokens, characters, replacements), makes the failure go away"
		if rd.TypeCheck && slices.ContainsFunc(rd.ins, typed) {
			v += rd.typeNote()
		}
	default:
		v = "the result is not certified 1-minimal"
	}
	c.Verdict = []string{v}
	if files == 0 || sum.SizeAfter == 0 {
		c.Verdict = append(c.Verdict, emptyHint(sum, "tree"))
	}
	switch {
	case !rd.treeChanged() && t.result.Dest == t.path:
		c.Tail = []string{fmt.Sprintf("%s is unchanged: nothing smaller fails", t.path)}
	case t.result.Backup != "":
		c.Tail = []string{fmt.Sprintf("%s now holds the result (%s); the original is in %s", t.path, treeFiles(rd), t.result.Backup)}
	default:
		c.Tail = []string{fmt.Sprintf("result tree written to %s (%s)", t.result.Dest, treeFiles(rd))}
	}
	return c
}

// treeFiles names the result's files, or counts them when there are
// many.
func treeFiles(rd *reducer) string {
	var names []string
	for _, in := range rd.ins {
		if !in.removed {
			names = append(names, in.Name)
		}
	}
	if len(names) == 0 {
		return "no files"
	}
	if len(names) > 6 {
		return report.Plural(len(names), "file")
	}
	return strings.Join(names, ", ")
}

// treePage is what the report shows of a tree: each remaining file, and
// the difference from the original as one patch (removed files as
// deleted).
func (rd *reducer) treePage() report.Page {
	var res, diff strings.Builder
	for _, in := range rd.ins {
		if in.link != "" {
			if !in.removed {
				fmt.Fprintf(&res, "=== %s -> %s\n", in.Name, in.link)
			}
			continue
		}
		if !in.removed {
			fmt.Fprintf(&res, "=== %s\n%s", in.Name, in.data)
			if len(in.data) > 0 && in.data[len(in.data)-1] != '\n' {
				res.WriteByte('\n')
			}
		}
		orig, err := in.Original()
		if err != nil {
			continue
		}
		var now []byte
		if !in.removed {
			now = in.data
		}
		if bytes.Equal(orig, now) && !in.removed {
			continue
		}
		o, _ := decomp.Lines{}.Cut(orig)
		n, _ := decomp.Lines{}.Cut(now)
		to := "b/" + in.Name
		if in.removed {
			to = "/dev/null"
		}
		diff.WriteString(decomp.Diff(o, n).Unified("a/"+in.Name, to, 3))
	}
	return report.Page{Result: res.String(), Diff: diff.String()}
}

// emptyHint says what an empty result means: the test fails without the
// input, so it does not tell this failure from another.
func emptyHint(sum *report.Summary, what string) string {
	return fmt.Sprintf("the empty %s fails too (%s): the test does not tell this failure from any other; state it with --fail-on REGEX (a line of the original's output that names the failure)", what, sum.Signature)
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
		if !in.removed && in.link == "" && (whole || !in.whole) {
			files[in.Name] = in.data
		}
	}
	return files
}
