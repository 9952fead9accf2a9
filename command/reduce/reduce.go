// Package reduce is wynot reduce: it simplifies failing input files,
// or the argument list of a failing command, to a 1-minimal one (ddmin,
// "Simplifying and Isolating Failure-Inducing Input", TSE 2002, Fig. 5),
// cutting each input by its syntax where it has one (package syntax) and
// by lines, bracket groups, tokens and characters otherwise (package
// decomp).
package reduce

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/decomp"
	"github.com/wynot/wynot/domain/schedule"
	"github.com/wynot/wynot/domain/syntax"
	_ "github.com/wynot/wynot/domain/syntax/golang" // registers Go in the table of languages
	"github.com/wynot/wynot/domain/syntax/treesitter"
	"github.com/wynot/wynot/internal/enum"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Command is wynot reduce.
var Command = &command.Command{Name: "reduce", Section: "Reduce", Flags: flags}

func flags(fs *flag.FlagSet, f *command.Flags) command.Maker {
	var r Reduction
	fs.TextVar(&r.Split, "split", Split{}, "auto (each input in its language by its name: "+strings.Join(syntax.Names(), ", ")+"), text, go, tree:LANG (a tree-sitter grammar), lines, brackets, tokens, runes or bytes")
	fs.BoolVar(&r.TypeCheck, "typecheck", true, "predict Go candidates with new type errors (go/types) unresolved, without a test, once the first few such candidates did not fail (--typecheck=false tests them all)")
	fs.TextVar(&r.Variant, "variant", dd.Book, "book or tse: the test order of ddmin")
	fs.BoolVar(&r.Args, "argv", false, "reduce the command's arguments")
	fs.Func("with", "a `FILE` the test needs beside the candidate, copied unchanged into every test's directory (repeatable)",
		func(s string) error { r.With = append(r.With, s); return nil })
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		if r.Args && !inv.IsSet("j") {
			// Tests of --argv run in the current directory, where parallel
			// runs of a compiler could overwrite each other's files.
			inv.Flags.Jobs = 1
		}
		r.Files, r.Test, r.Out, r.Output, r.jobs = inv.Args, inv.Test, inv.Output, inv.Flags.Output, inv.Flags.Jobs
		r.typeCheckAsked = inv.IsSet("typecheck") && r.TypeCheck
		return r.job(ctx)
	}
}

// SplitKind is how inputs are cut: the values of --split.
type SplitKind int

// The kinds of split.
const (
	Auto     SplitKind = iota // by the input's language where it has one, else Text
	Text                      // lines, bracket groups, tokens, characters
	Go                        // as Go syntax trees
	Tree                      // as the syntax trees of a tree-sitter grammar
	Lines                     // lines only
	Brackets                  // bracket groups only
	Tokens                    // tokens only
	Runes                     // characters only
	Bytes                     // bytes only
)

var splitNames = []string{"auto", "text", "go", "tree:LANG", "lines", "brackets", "tokens", "runes", "bytes"}

func (k SplitKind) String() string { return enum.Name(splitNames, k, "SplitKind") }

// Split is a value of --split: a kind, and for Tree the grammar's name.
type Split struct {
	Kind SplitKind
	Lang string // with Tree: the grammar (treesitter.Names)
}

func (sp Split) String() string {
	if sp.Kind == Tree {
		return "tree:" + sp.Lang
	}
	return sp.Kind.String()
}

// MarshalText returns the split as --split names it.
func (sp Split) MarshalText() ([]byte, error) { return []byte(sp.String()), nil }

// UnmarshalText reads a split as --split names it.
func (sp *Split) UnmarshalText(b []byte) error {
	if lang, ok := strings.CutPrefix(string(b), "tree:"); ok {
		if _, err := treesitter.Lookup(lang); err != nil {
			return err
		}
		*sp = Split{Tree, lang}
		return nil
	}
	k, err := enum.Parse[SplitKind](splitNames, string(b))
	if err != nil || k == Tree {
		return fmt.Errorf("want one of %s, or tree:LANG with LANG one of %s", strings.Join(splitNames[:3], ", ")+", "+strings.Join(splitNames[4:], ", "),
			strings.Join(treesitter.Names(), ", "))
	}
	*sp = Split{Kind: k}
	return nil
}

// syntactic tells whether the split names a syntax: go or tree:LANG.
func (sp Split) syntactic() bool { return sp.Kind == Go || sp.Kind == Tree }

// lang is the language an input called name is reduced in ("" for none):
// the one the split names, or under auto the one its extension says.
func (sp Split) lang(name string) string {
	switch sp.Kind {
	case Go:
		return "go"
	case Tree:
		return sp.Lang
	case Auto:
		return syntax.LangOf(name)
	}
	return ""
}

// Reduction is wynot reduce: it simplifies failing input files (or, with
// Args, the argument list of the failing command) to a 1-minimal one.
type Reduction struct {
	Files []string // the input files
	Args  bool     // reduce the arguments of Test.Argv instead of files
	Test  command.Test
	Out   command.Output
	Split Split
	// TypeCheck predicts Go candidates with new type errors (go/types)
	// Unresolved without running the test, once the first few of them
	// were run and did not fail (on by default: on the Go cases of
	// bench/RESULTS.md it saves half the tests or more).
	TypeCheck bool
	// typeCheckAsked says --typecheck was given on the command line
	// (an error when no input is Go).
	typeCheckAsked bool
	// With are files the test needs beside the candidate, copied
	// unchanged into every test's directory.
	With   []string
	Output string // -o: where results go instead of replacing the inputs
	// Variant is the test order of ddmin.
	Variant dd.Variant
	jobs    int // tests at once, for the room a directory's copies need
}

// input is one file being reduced.
type input struct {
	path string
	name string // its name in the work directory
	// orig is the original content, until a file holds it (origAt: the
	// backup this run wrote, or the input itself when the result goes
	// elsewhere), after which it is read again when needed, so that a
	// large original does not stay in memory beside the reduction.
	orig     []byte
	origSize int
	origSum  string // its digest
	origAt   string
	data     []byte // the smallest failing content so far
	mode     fs.FileMode
	dest     string // where the result goes
	backup   string // FILE.orig (or FILE.orig.N), when the input is replaced in place
	// madeBackup says backup was written by this run; an existing one
	// is reused only for the same interrupted reduction (see lineage).
	madeBackup bool
	backupSum  string // the digest of what backup holds (for the lineage)
	written    []byte // what dest holds now (nil: untouched)
	dirty      bool
	syn        *syntax.Syntax // the input's language, when it is reduced as a syntax tree
	// In a directory's reduction: removed says the file is no longer
	// part of the result; link is a symbolic link's target; whole says
	// the file is only ever removed as a whole (a link, a binary or
	// empty file), never cut.
	removed bool
	link    string
	whole   bool
}

// job reads the inputs, decides where the results go and makes the job.
func (r *Reduction) job(ctx context.Context) (command.Job, command.Workload, error) {
	if r.Args {
		if len(r.Files) > 0 {
			return nil, command.Workload{}, command.InputError("--argv reduces the command's arguments; give no input files")
		}
		if r.Test.Script != "" || len(r.Test.Argv) < 2 {
			return nil, command.Workload{}, command.InputError("--argv needs a command with arguments after --")
		}
		return &argReducer{Reduction: r, args: r.Test.Argv[1:]}, command.Workload{InPlace: true}, nil
	}
	if len(r.Files) == 0 {
		return nil, command.Workload{}, command.InputError("no input file to reduce")
	}
	if st, err := os.Stat(r.Files[0]); err == nil && st.IsDir() {
		return r.treeJob(ctx)
	}
	ins, err := r.openInputs()
	if err != nil {
		return nil, command.Workload{}, err
	}
	total := 0
	for _, in := range ins {
		total += in.origSize
	}
	with, err := r.readWith(ins)
	if err != nil {
		return nil, command.Workload{}, err
	}
	return &reducer{Reduction: r, ins: ins, with: with}, command.Workload{Files: len(ins), Size: total}, nil
}

// treeJob is the job for a directory: its files are reduced together.
func (r *Reduction) treeJob(ctx context.Context) (command.Job, command.Workload, error) {
	if len(r.Files) > 1 {
		return nil, command.Workload{}, command.InputError("input %s is a directory: give one directory, or files", r.Files[0])
	}
	ins, t, err := r.openTree(ctx, r.Files[0])
	if err != nil {
		return nil, command.Workload{}, err
	}
	with, err := r.readWith(nil)
	if err != nil {
		return nil, command.Workload{}, err
	}
	total := 0
	for _, in := range ins {
		total += in.origSize
	}
	for _, w := range with {
		if _, ok := t.base.Files[w.Name]; ok {
			return nil, command.Workload{}, command.InputError("--with %s has the name of %s in the tree; the test sees them in one directory", w.Name, w.Name)
		}
	}
	return &reducer{Reduction: r, ins: ins, with: with, tree: t}, command.Workload{Size: total}, nil
}

// readWith reads the --with files.
func (r *Reduction) readWith(ins []*input) ([]runner.File, error) {
	var fs []runner.File
	for _, p := range r.With {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, command.InputError("--with %s: %v", p, errors.Unwrap(err))
		}
		name := filepath.Base(p)
		for _, in := range ins {
			if in.name == name {
				return nil, command.InputError("--with %s has the name of the input %s; the test sees them side by side in one directory", p, in.path)
			}
		}
		fs = append(fs, runner.File{Name: name, Data: data})
	}
	return fs, nil
}

// openInputs reads the inputs and decides where their results go; it
// writes FILE.orig for inputs reduced in place.
func (r *Reduction) openInputs() ([]*input, error) {
	var ins []*input
	names := map[string]string{}
	for _, p := range r.Files {
		st, err := os.Stat(p)
		if err != nil {
			return nil, command.InputError("input %s: %v", p, errors.Unwrap(err))
		}
		if st.IsDir() {
			return nil, command.InputError("input %s is a directory; give files", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, command.InputError("input %s: %v", p, err)
		}
		if len(data) == 0 {
			return nil, command.InputError("input %s is empty: nothing to reduce", p)
		}
		if r.Split.Kind == Runes && !utf8.Valid(data) {
			return nil, command.InputError("input %s is not UTF-8 text, so it cannot be cut into runes; use --split bytes", p)
		}
		name := filepath.Base(p)
		if other, ok := names[name]; ok {
			return nil, command.InputError("inputs %s and %s have the same name; the test sees them side by side in one directory", other, p)
		}
		names[name] = p
		in := &input{path: p, name: name, orig: data, origSize: len(data), origSum: digest(data), data: data, mode: st.Mode()}
		if lang := r.Split.lang(p); lang != "" {
			err := r.parse(in, lang)
			switch {
			case err != nil && r.Split.syntactic():
				return nil, command.InputError("input %s %v; reduce it with --split auto or lines", p, err)
			case err != nil:
				say(r.Out, "input %s %v; reducing it as text", p, err)
			}
		}
		ins = append(ins, in)
	}
	if r.typeCheckAsked && !slices.ContainsFunc(ins, typed) {
		return nil, command.InputError("--typecheck applies to Go inputs that parse; none of the inputs is one")
	}
	if err := r.destinations(ins); err != nil {
		return nil, err
	}
	return ins, nil
}

// parse reads input in as lang: it is then reduced as a syntax tree.
func (r *Reduction) parse(in *input, lang string) error {
	syn, err := syntax.New(lang, in.data, r.TypeCheck)
	if err == nil {
		in.syn = syn
	}
	return err
}

// destinations decides where each result goes: -o, in place (with
// FILE.orig kept), or, for inputs that are not regular files (/dev/null,
// a pipe), the current directory.
func (r *Reduction) destinations(ins []*input) error {
	if r.Output != "" {
		st, err := os.Stat(r.Output)
		isDir := err == nil && st.IsDir()
		if len(ins) > 1 && !isDir {
			if err == nil {
				return command.InputError("-o %s: with several inputs, -o names a directory", r.Output)
			}
			if err := os.Mkdir(r.Output, 0o755); err != nil {
				return command.InputError("-o %s: %v", r.Output, err)
			}
			isDir = true
		}
		for _, in := range ins {
			in.dest = r.Output
			if isDir {
				in.dest = filepath.Join(r.Output, in.name)
			}
			if err := command.CheckWritable(filepath.Dir(in.dest)); err != nil {
				return command.InputError("cannot write the result to %s: %v", in.dest, err)
			}
			if same(in.dest, in.path) {
				in.dest = ""
			}
		}
	}
	for _, in := range ins {
		switch {
		case in.dest != "":
		case !replaceable(in.path):
			// A symbolic link, a device, a pipe, anything under /dev or
			// /proc: never replaced, renamed or written next to.
			in.dest = command.FreePath(in.name+".reduced", "")
			if err := command.CheckWritable("."); err != nil {
				return command.InputError("input %s is not a regular file, so its result goes to the current directory, which is not writable: %v; give -o", in.path, err)
			}
			say(r.Out, "input %s is not a regular file; it stays as it is, and the result goes to %s", in.path, in.dest)
		default:
			in.dest = in.path
			if err := command.CheckWritable(filepath.Dir(in.path)); err != nil {
				return command.InputError("cannot replace %s: %v; give -o", in.path, err)
			}
			in.backup, in.backupSum = backupFor(in, r.Out)
		}
	}
	return nil
}

// replaceable reports whether the input at p is a regular file that
// wynot may replace by its result: not a symbolic link (Lstat), not
// under /dev or /proc.
func replaceable(p string) bool {
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	return !strings.HasPrefix(abs, "/dev/") && !strings.HasPrefix(abs, "/proc/")
}

// backupFor chooses where the original of an input reduced in place is
// kept: FILE.orig, unless that exists. An existing FILE.orig is kept as
// the original when it belongs to an interrupted reduction of this very
// file (its lineage says that FILE.orig holds what this run began from
// and FILE what it wrote last); otherwise it belongs to something else,
// and the original goes to the first free FILE.orig.N.
func backupFor(in *input, out command.Output) (path, sum string) {
	base := in.path + ".orig"
	old, err := os.ReadFile(base)
	if err != nil {
		return base, in.origSum
	}
	if lin, ok := readLineage(in.path); ok && lin.Orig == digest(old) && lin.Last == in.origSum {
		say(out, "%s holds the original of an interrupted reduction of %s; keeping it, and reducing %s as it is now", base, in.path, in.path)
		return base, lin.Orig
	}
	p := command.FreePath(base, "")
	say(out, "%s exists and is not the original of %s; the original will be kept in %s", base, in.path, p)
	return p, in.origSum
}

// keepOriginals writes the backups of inputs reduced in place, once the
// original's checks have passed, and records their lineage.
func (rd *reducer) keepOriginals() error {
	for _, in := range rd.ins {
		if in.backup == "" {
			continue
		}
		if _, err := os.Stat(in.backup); err == nil {
			continue // the original of an interrupted reduction
		}
		if err := command.WriteAtomic(in.backup, in.orig, in.mode); err != nil {
			return command.InputError("cannot keep the original in %s: %v; give -o", in.backup, err)
		}
		in.madeBackup = true
		writeLineage(in.path, lineage{Orig: in.backupSum, Last: in.origSum})
	}
	for _, in := range rd.ins {
		switch {
		case in.madeBackup:
			in.orig, in.origAt = nil, in.backup
		case in.dest != in.path && replaceable(in.path):
			in.orig, in.origAt = nil, in.path
		}
	}
	return nil
}

// original returns the original content: from memory, or read again
// from the file that holds it, which must still hold it.
func (in *input) original() ([]byte, error) {
	if in.orig != nil {
		return in.orig, nil
	}
	for _, p := range []string{in.origAt, in.path} {
		if p == in.dest && in.written != nil {
			continue // the file holds a result now
		}
		if data, err := os.ReadFile(p); err == nil && digest(data) == in.origSum {
			return data, nil
		}
	}
	return nil, fmt.Errorf("the original of %s is no longer in %s: it changed during the run", in.path, in.origAt)
}

// dropBackups removes the backups this run made of inputs it left as
// they were: nothing was found, and the original is still in place.
func (rd *reducer) dropBackups() {
	for _, in := range rd.ins {
		if in.madeBackup && in.written == nil {
			os.Remove(in.backup)
			removeLineage(in.path)
			in.backup, in.madeBackup = "", false
		}
	}
}

// say writes a message line before the session opens (unless quiet).
func say(o command.Output, format string, args ...any) {
	if o.Stderr != nil && !o.Quiet {
		fmt.Fprintf(o.Stderr, "wynot: "+format+"\n", args...)
	}
}

func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// reducer is the job of wynot reduce on files.
type reducer struct {
	*Reduction
	s         *command.Session
	ins       []*input
	with      []runner.File // files beside the candidate (--with)
	passes    []report.PassStats
	formatted []string // results printed by their language's formatter
	elements0 int      // the finest pieces of the originals
	searched  bool     // Search ran before (it runs again when a flaky test undid a result)
	mu        sync.Mutex
	// typesOff says where a candidate with a new type error failed when
	// tested (probeTypes): the test does not compile the code there, and
	// type errors there predict nothing. The key is the package
	// directory of the error in a tree, "" for files on their own.
	typesOff map[string]bool
	probed   bool
	// tree is the directory reduced as a whole, when the input is one.
	tree *dirTree
	// scheduled are the units the schedules listed, by the ID of their
	// schedule.Unit.
	scheduled []unit
	// unsimpler counts the candidates predicted because they would not
	// have made their input simpler.
	unsimpler atomic.Int64
}

// typeProbes is how many candidates with a new type error are tested
// before the search, to learn whether type errors predict the outcome;
// in a tree, one per package where such errors are, up to
// treeTypeProbes in all.
const (
	typeProbes     = 3
	treeTypeProbes = 12
	treeProbeTries = 24 // transformations tried per file for a probe in a tree
)

// probeTypes tests, before any search, a few candidates that parse but
// have a new type error (each one transformation of the first passes
// made): when one of them fails, the test does not compile the code
// (a grep, a formatter, a parser) and such candidates are tested from
// then on instead of being predicted unresolved. Deciding this before
// the first prediction keeps every prediction consistent with the
// tests. In a tree this is decided per package: "go vet ./..." still
// reports a failure in one package when another does not build, and
// "go build ./cmd/x" does not build what x does not import.
func (rd *reducer) probeTypes(ctx context.Context) error {
	rd.typesOff = map[string]bool{}
	if !rd.TypeCheck {
		return nil
	}
	perClass, most := typeProbes, typeProbes
	if rd.tree != nil {
		perClass, most = 1, treeTypeProbes
	}
	var probes []runner.Candidate
	var why []syntax.Prediction
	classes := map[string]int{}
	for _, u := range rd.treeUnits() {
		if u.su.Module {
			continue // its files are probed on their own
		}
		in := rd.ins[u.members[0]]
		var tree []decomp.Pass
		switch {
		case in.syn != nil && in.syn.Typed:
			ps, _, err := rd.unitPasses(u)
			if err != nil {
				return err
			}
			tree = ps
		case rd.textFinish(in) != nil:
			// A file a language of the tree knows of (a Go module's
			// go.mod, go.sum or vendor/modules.txt): candidates that
			// break what it describes are probed as those with type
			// errors are.
			_, text, err := rd.passList(in)
			if err != nil {
				return err
			}
			tree = text
		default:
			continue
		}
		tries := math.MaxInt
		if rd.tree != nil {
			// In a tree, the first pass of each file, and only its
			// first few transformations: a probe is a guess, and
			// type-checking a candidate with its package costs.
			tree, tries = tree[:min(len(tree), 1)], treeProbeTries
		}
		for _, sp := range tree {
			plan, err := sp.Plan(rd.data(u))
			if err != nil {
				return fmt.Errorf("%s: %s: %w", u.name, sp.Name(), err)
			}
			all := dd.All(plan.Len())
			for i := 0; i < plan.Len() && i < tries && len(probes) < most; i++ {
				if err := ctx.Err(); err != nil {
					return err
				}
				data, err := plan.Apply(slices.Delete(slices.Clone(all), i, i+1))
				if p, ok := syntax.Predicts(err); ok && data != nil && classes[p.Class] < perClass {
					classes[p.Class]++
					probes = append(probes, rd.unitCandidate(u, data))
					why = append(why, p)
				}
			}
		}
	}
	for i, c := range probes {
		p := why[i]
		if rd.typesOff[p.Class] {
			continue
		}
		t, err := rd.s.TestOne(ctx, "type check probe", c)
		if err != nil {
			return err
		}
		if t.Outcome != dd.Fail {
			continue
		}
		rd.typesOff[p.Class] = true
		rd.s.Say("%s", p.Still)
	}
	return nil
}

// typeNote says, after a verdict of 1-minimality, which candidates were
// not run because their language predicted them (type errors).
func (rd *reducer) typeNote() string {
	var off []string
	for d, ok := range rd.typesOff {
		if ok && d != "" {
			off = append(off, d)
		}
	}
	slices.Sort(off)
	i := slices.IndexFunc(rd.ins, typed)
	l, err := syntax.Lookup(rd.ins[i].syn.Lang)
	if err != nil {
		return ""
	}
	var units []syntax.Unit
	for _, u := range rd.extraUnits() {
		units = append(units, u.su)
	}
	return l.Untested(off, units)
}

// tested says that a candidate a plan rejected with err is tested all
// the same: its language predicted it beyond parsing (a new type error),
// and probeTypes found that such predictions predict nothing for this
// test.
func (rd *reducer) tested(err error, data []byte) bool {
	p, ok := syntax.Predicts(err)
	return data != nil && ok && rd.typesOff[p.Class]
}

// typed says the input is in a language that predicts candidates beyond
// parsing (Go's type checks).
func typed(in *input) bool { return in.syn != nil && in.syn.Typed }

func (rd *reducer) candidate(fi int, data []byte) runner.Candidate {
	if rd.tree != nil {
		var ch map[int][]byte
		if fi >= 0 {
			ch = map[int][]byte{fi: data}
		}
		return rd.treeCandidate(ch, nil)
	}
	files := make([]runner.File, len(rd.ins))
	for i, in := range rd.ins {
		files[i] = runner.File{Name: in.name, Data: in.data}
	}
	if fi >= 0 {
		files[fi].Data = data
	}
	return runner.Candidate{Files: append(files, rd.with...)}
}

func (rd *reducer) size() int {
	n := 0
	for _, in := range rd.ins {
		if !in.removed {
			n += len(in.data)
		}
	}
	return n
}

func (rd *reducer) what() string {
	if rd.tree != nil {
		return "original tree"
	}
	if len(rd.ins) > 1 {
		return "original inputs"
	}
	return "original input"
}

// Begin starts from the inputs as they are.
func (rd *reducer) Begin() command.Begin {
	return command.Begin{Failing: rd.candidate(-1, nil), What: rd.what(), Size: rd.size(), Algorithm: "ddmin"}
}

// Search keeps the originals and runs the rounds of passes until none
// shrinks an input; then the result is formatted and written.
func (rd *reducer) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	rd.s = s
	found := command.Found{Kept: "the smallest failing input so far is kept"}
	if rd.tree != nil {
		found.Kept = "the smallest failing tree so far is kept"
	}
	keep, drop := rd.keepOriginals, rd.dropBackups
	if rd.tree != nil {
		keep, drop = rd.keepTree, rd.dropTreeBackup
		command.WatchTree(s, rd.tree.ws)
	}
	if err := keep(); err != nil {
		return found, err
	}
	defer drop()
	if !rd.searched {
		rd.elements0 = rd.elements()
	}
	sizeBefore := 0
	for _, in := range rd.ins {
		sizeBefore += in.origSize
	}
	if !rd.searched {
		s.Say("the %s fails: %s", rd.what(), s.Signature())
		s.Say("reducing %s, %s at a time, %s per test at most", report.Plural(sizeBefore, "byte"),
			report.Plural(s.Jobs, "test"), s.Timeout())
	}
	rd.searched = true

	sched := rd.schedule()
	certified, err := sched.Run(ctx, rd.step(sched))
	rd.passes = append(rd.passes, passStats(sched.Stats)...)
	if err == nil {
		err = rd.format(ctx)
	}
	for _, in := range rd.ins {
		if werr := rd.save(in, true); werr != nil && err == nil {
			err = werr
		}
	}
	found.Minimal = certified
	// What to confirm is the result as it is now, after the search.
	found.Confirm = []command.Check{{Candidate: rd.candidate(-1, nil), Want: dd.Fail, What: "the result"}}
	if certified && err == nil {
		found.Removals, err = rd.removals(ctx)
	}
	return found, err
}

// Restart goes back to the originals: the inputs' results are written
// back to what the search began from.
func (rd *reducer) Restart() error {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	for _, in := range rd.ins {
		if in.removed {
			in.removed, in.dirty = false, true
			if err := rd.saveLocked(in, false); err != nil {
				return err
			}
		}
		if len(in.data) == in.origSize && digest(in.data) == in.origSum {
			continue
		}
		orig, err := in.original()
		if err != nil {
			return err
		}
		in.data, in.dirty = orig, true
		if in.written != nil {
			if err := rd.saveLocked(in, false); err != nil {
				return err
			}
		}
	}
	size := rd.size()
	rd.s.Progress.Update(func(st *report.Status) { st.Size = size })
	return nil
}

// maxRemovals bounds the removals rechecked before a result is called
// 1-minimal; a larger result is taken as the search certified it, unless
// the test has shown itself flaky.
const maxRemovals = 5000

// removals are the result with one change less, for each change of each
// pass of the schedule (and, in a tree, each file less): what
// 1-minimality says must not fail. Candidates a pass rejects (they do not
// parse) are left out, as the search predicted them; so are duplicates
// and the result itself.
func (rd *reducer) removals(ctx context.Context) ([]command.Removal, error) {
	var rs []command.Removal
	if rd.tree != nil {
		rs = rd.treeRemovals()
	}
	most := maxRemovals - len(rs)
	if most < 0 {
		most = -1
	}
	sched := rd.schedule()
	ss, ok, err := sched.Removals(ctx, most)
	if err != nil || !ok {
		return nil, err
	}
	for _, r := range ss {
		u := rd.scheduled[r.Unit.ID]
		what := fmt.Sprintf("removing %s %d of %d", r.Pass, r.Index+1, r.Of)
		if l := rd.label(u); l != "" {
			what += " in " + l
		}
		rs = append(rs, command.Removal{Candidate: rd.unitCandidate(u, r.Data), What: what})
	}
	return rs, nil
}

// format prints each input in a language with a formatter (Go: gofmt)
// as the formatter would, and keeps that form when it still fails. The
// token and character passes leave text unformatted; formatting changes
// no syntax tree, so the result stays minimal.
func (rd *reducer) format(ctx context.Context) error {
	for fi, in := range rd.ins {
		if in.removed || in.syn == nil || in.syn.Format == nil {
			continue
		}
		out, err := in.syn.Format(in.data)
		if err != nil || string(out) == string(in.data) {
			continue
		}
		rec, err := rd.s.TestOne(ctx, "format", rd.candidate(fi, out))
		if err != nil {
			return err
		}
		if rec.Outcome != dd.Fail {
			rd.s.Say("the formatted form of %s does not fail (%s); keeping it unformatted", in.name, rec.Outcome)
			continue
		}
		rd.mu.Lock()
		in.data, in.dirty = out, true
		rd.mu.Unlock()
		rd.formatted = append(rd.formatted, in.dest)
	}
	return nil
}

// passList lists the passes of one round over input in: the tree passes
// of an input in a known language (none for text), and the text passes:
// for auto, coarse to fine, lines, bracket groups (whole, then contents)
// at each depth, tokens, and characters (bytes for input that is not
// UTF-8), then replacements (decomp.Replacements); for an input in a
// known language only tokens and characters, and only where they leave
// it parsing.
func (rd *reducer) passList(in *input) (tree, text []decomp.Pass, err error) {
	data := in.data
	if t := rd.langTree(in); t != nil {
		// A file of a tree is prepared with the tree as it is now (a
		// Go file is type-checked with its package, and the packages
		// that import it).
		if syn := t.File(in.name, data, rd.files(true)); syn != nil {
			in.syn = syn
		}
	}
	if in.syn != nil {
		// The input parses: the original was checked, and every
		// candidate since was finished by the language. A Go file of
		// a tree has its tree passes with its package (unitPasses).
		if !rd.bundled(in) {
			if tree, err = in.syn.Passes(data); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", in.name, err)
			}
		}
		if rd.Split.Kind == Auto {
			l := schedule.Ladder{Rungs: schedule.Tokens | schedule.Chars, Finish: in.syn.Finish}
			if !in.syn.Renames {
				// Go's tree passes shorten names already; in the
				// tree-sitter languages, the replacements do (an
				// identifier at every occurrence, a number by 0 or 1, a
				// string emptied, a group by its first element), each
				// candidate checked to parse.
				l.Rungs |= schedule.Replacements
			}
			text = l.Passes(data)
		}
		return tree, text, nil
	}
	return nil, schedule.Ladder{Rungs: rd.Split.rungs(), Finish: rd.textFinish(in)}.Passes(data), nil
}

// rungs are the rungs of the text ladder a split takes: one for a
// single kind of piece; for auto, besides the deletions, replacements
// (smaller alternatives for the words, numbers, strings and bracket
// groups of text in no known language).
func (sp Split) rungs() schedule.Rungs {
	switch sp.Kind {
	case Lines:
		return schedule.Lines
	case Tokens:
		return schedule.Tokens
	case Runes:
		return schedule.Runes
	case Bytes:
		return schedule.Bytes
	case Brackets:
		return schedule.Brackets
	case Auto:
		return schedule.Deletions | schedule.Replacements
	}
	return schedule.Deletions
}

// textFinish is what predicts the candidates of the text passes over an
// input in no language that a language of the tree knows of (a Go
// module's go.mod, go.sum or vendor/modules.txt: Tree.Finish), or nil.
func (rd *reducer) textFinish(in *input) func([]byte) ([]byte, error) {
	if rd.tree == nil {
		return nil
	}
	for _, t := range rd.tree.langs {
		if fin := t.Finish(in.name, in.data, rd.files(true)); fin != nil {
			return fin
		}
	}
	return nil
}

// granularity names the finest pieces of the split.
func (rd *reducer) granularity() string {
	switch rd.Split.Kind {
	case Go, Tree:
		return "syntax tree transformations"
	case Lines:
		return "lines"
	case Tokens:
		return "tokens"
	case Bytes:
		return "bytes"
	case Brackets:
		return "bracket groups"
	case Runes:
		return "characters"
	}
	for _, in := range rd.ins {
		if !in.whole && !utf8.Valid(in.data) {
			return "bytes"
		}
	}
	return "characters"
}

// elements counts the finest pieces of all inputs.
func (rd *reducer) elements() int {
	n := 0
	for _, in := range rd.ins {
		if in.removed || in.whole {
			continue
		}
		var sp decomp.Splitter
		switch rd.granularity() {
		case "syntax tree transformations":
			sp = decomp.Tokens{}
		case "lines":
			sp = decomp.Lines{}
		case "tokens":
			sp = decomp.Tokens{}
		case "bytes":
			sp = decomp.Bytes{}
		case "bracket groups":
			sp = decomp.Brackets{}
		default:
			sp = decomp.Chars(in.data)
		}
		n += decomp.Count(sp, in.data)
	}
	return n
}

// singlesFirst is the most transformations of a syntax tree pass (or of
// replacements) for which ddmin starts by testing each alone
// (dd.Options.Start).
const singlesFirst = 16

// pass runs ddmin on one unit decomposed by one pass. It reports, for
// the schedule, whether the search completed (the result is 1-minimal
// for this decomposition), whether the unit shrank (became simpler:
// see schedule.Simpler), and the pass's statistics. Candidates the plan
// rejects (they do not parse) are predicted Unresolved without a test
// (Debugging Book, "Reducing Failure-Inducing Inputs": predicting test
// outcomes), and so are those that would not make the input simpler.
func (rd *reducer) pass(ctx context.Context, u unit, sp decomp.Pass, transforms bool) (schedule.Ran, error) {
	s := rd.s
	src := rd.data(u)
	plan, err := sp.Plan(src)
	if err != nil {
		return schedule.Ran{}, fmt.Errorf("%s: %s: %w", u.name, sp.Name(), err)
	}
	if plan.Len() == 0 {
		return schedule.Ran{Minimal: true}, nil
	}
	before := rd.unitSize(u)
	name := sp.Name()
	if l := rd.label(u); l != "" {
		name += " of " + l
	}
	s.Progress.Update(func(st *report.Status) { st.Pass, st.Granularity = name, 0 })
	s.TestLog.Printf("Pass %s: %s\n", name, report.Plural(plan.Len(), "change"))
	st0 := s.Stats()
	t0 := time.Now()

	apply := func(c dd.Config) ([]byte, bool) {
		data, err := plan.Apply(c)
		return data, err == nil || rd.tested(err, data)
	}
	opts := dd.Options{Variant: rd.Variant}
	if transforms && plan.Len() <= singlesFirst {
		// A level of a syntax tree, or replacements, with few
		// transformations: test each alone first (most levels of a deep
		// tree have none to make).
		opts.Start = plan.Len()
	}
	res, err := s.SearchTests(ctx, name, plan.Len(), dd.Minimize, opts,
		func(ctx context.Context, c dd.Config) (runner.Test, error) {
			data, err := plan.Apply(c)
			if err != nil && !rd.tested(err, data) {
				return s.Predict(err.Error()), nil
			}
			if !bytes.Equal(data, src) && !schedule.Simpler(data, src) {
				// It would not make the input smaller: a candidate
				// the reduction could not take is not one.
				rd.unsimpler.Add(1)
				return s.Predict("not smaller than the input"), nil
			}
			return s.Test(ctx, rd.unitCandidate(u, data))
		},
		func(st dd.Step) {
			if st.Rule == dd.ReduceToSubset || st.Rule == dd.ReduceToComplement {
				if data, ok := apply(st.Config); ok {
					rd.improveUnit(u, data)
				}
			}
		})
	// The result so far is the best even when the search was cut short.
	settled := true
	if res.Fail != nil {
		best, ok := apply(res.Fail)
		if ok && schedule.Simpler(best, rd.data(u)) {
			rd.improveUnit(u, best)
		}
		// The search ended where the input is now, unless a step it
		// took was not simpler than one taken before it (tests run in
		// parallel): then this pass is not known to be done.
		settled = ok && bytes.Equal(best, rd.data(u))
	}
	st1 := s.Stats()
	ran := schedule.Ran{Changes: plan.Len(), Tests: st1.Runs - st0.Runs, Predicted: st1.Predicted - st0.Predicted,
		Before: before, After: rd.unitSize(u), Seconds: time.Since(t0).Seconds()}
	s.TestLog.Printf("Pass %s done: %s, %d predicted, %s removed\n", name, report.Plural(ran.Tests, "test"), ran.Predicted,
		report.Plural(before-ran.After, "byte"))
	var nf *dd.NotFailingError
	if errors.As(err, &nf) {
		return ran, command.NotReproduced("the input that failed before does not fail any more (%s); the test is flaky: try --repeat 3", nf.Outcome)
	}
	ran.Minimal = err == nil && res.Minimal && settled
	ran.Shrank = !bytes.Equal(rd.data(u), src)
	return ran, err
}

// improve records a smaller failing content and writes it out at once,
// atomically, so that the file holds the smallest failing input found
// whenever wynot stops, even by SIGKILL. (Only the last write is synced
// to the disk: a crash of the whole system may lose the newest few.)
func (rd *reducer) improve(in *input, data []byte) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if !schedule.Simpler(data, in.data) {
		return
	}
	in.data, in.dirty = data, true
	size := rd.size()
	rd.s.Progress.Update(func(st *report.Status) { st.Size = size })
	if err := rd.saveLocked(in, false); err != nil {
		rd.s.SetFatal(err)
	}
}

func (rd *reducer) save(in *input, force bool) error {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if !in.dirty && !(force && in.dest != in.path && in.written == nil) {
		return nil
	}
	return rd.saveLocked(in, true)
}

// saveLocked writes the input's content to its destination atomically
// (synced to the disk when sync is set) and, for an input reduced in
// place, records what it wrote in the lineage.
func (rd *reducer) saveLocked(in *input, sync bool) error {
	if rd.tree != nil && (in.removed || in.link != "") {
		if err := rd.saveEntry(in, sync); err != nil {
			return err
		}
		in.written, in.dirty = []byte{}, false
		rd.treeLineage()
		return nil
	}
	if rd.tree != nil {
		if err := os.MkdirAll(filepath.Dir(in.dest), 0o755); err != nil {
			return fmt.Errorf("writing the result to %s: %w", in.dest, err)
		}
	}
	write := command.WriteAtomic
	if !sync {
		write = command.ReplaceFile
	}
	if err := write(in.dest, in.data, in.mode); err != nil {
		return fmt.Errorf("writing the result to %s: %w", in.dest, err)
	}
	in.written, in.dirty = in.data, false
	if in.backup != "" {
		writeLineage(in.path, lineage{Orig: in.backupSum, Last: digest(in.data)})
	}
	if rd.tree != nil {
		rd.treeLineage()
	}
	return nil
}

// Close fills in the summary and says where the results are.
func (rd *reducer) Close(sum *report.Summary, end command.End) command.Closing {
	rd.summarize(sum)
	if rd.tree != nil {
		return rd.treeClosing(sum, end)
	}
	if len(rd.ins) == 1 {
		sum.Result = rd.ins[0].dest
	} else {
		sum.Result = filepath.Dir(rd.ins[0].dest)
	}
	c := command.Closing{Page: rd.page}
	pct := 100 * float64(sum.SizeAfter) / float64(max(sum.SizeBefore, 1))
	what := rd.ins[0].path
	if len(rd.ins) > 1 {
		what = report.Plural(len(rd.ins), "file")
	}
	c.Head = []string{fmt.Sprintf("reduced %s from %s to %s (%s) in %s%s, %.1fs", what,
		report.Plural(sum.SizeBefore, "byte"), report.Plural(sum.SizeAfter, "byte"), report.Percent(pct),
		report.Plural(sum.Tests, "test"), rd.predictedNote(sum), sum.Seconds)}
	var v string
	switch {
	case end.Interrupted:
		v = "interrupted: the result is the smallest failing input found so far, not 1-minimal"
	case end.Minimal && rd.Split.syntactic():
		v = "the result is 1-minimal: making any single one of its remaining syntax tree transformations makes the failure go away"
	case end.Minimal && slices.ContainsFunc(rd.ins, func(in *input) bool { return in.syn != nil }):
		v = fmt.Sprintf("the result is 1-minimal: making any single one of its remaining syntax tree transformations, or removing any single one of its tokens or %s, makes the failure go away or leaves source that does not parse", rd.granularity())
	case end.Minimal && rd.Split.Kind == Auto:
		v = fmt.Sprintf("the result is 1-minimal: removing any single one of its %s, or any single replacement of a word, number, string or bracket group by a smaller one, makes the failure go away", rd.granularity())
	case end.Minimal:
		v = fmt.Sprintf("the result is 1-minimal: removing any single one of its %s makes the failure go away", rd.granularity())
	default:
		v = "the result is not certified 1-minimal"
	}
	if end.Minimal && rd.TypeCheck && !rd.typesOff[""] && slices.ContainsFunc(rd.ins, typed) {
		v += rd.typeNote()
	}
	c.Verdict = []string{v}
	if sum.SizeAfter == 0 && !end.Interrupted {
		c.Verdict = append(c.Verdict, emptyHint(sum, "input"))
	}
	for _, in := range rd.ins {
		switch {
		case in.written == nil && in.dest == in.path && in.backup != "":
			c.Tail = append(c.Tail, fmt.Sprintf("%s is unchanged: nothing smaller fails; the original is in %s", in.path, in.backup))
		case in.written == nil && in.dest == in.path:
			c.Tail = append(c.Tail, fmt.Sprintf("%s is unchanged: nothing smaller fails", in.path))
		case in.backup != "":
			c.Tail = append(c.Tail, fmt.Sprintf("%s now holds the result; the original is in %s", in.path, in.backup))
		default:
			c.Tail = append(c.Tail, fmt.Sprintf("result written to %s", in.dest))
		}
	}
	return c
}

// summarize fills in the summary's part that files and trees share:
// the result's files, sizes, passes and granularity.
func (rd *reducer) summarize(sum *report.Summary) {
	for _, in := range rd.ins {
		sum.SizeBefore += in.origSize
		if !in.removed {
			sum.Files = append(sum.Files, in.dest)
		}
	}
	sum.Passes, sum.Formatted = rd.passes, rd.formatted
	sum.SizeAfter = rd.size()
	sum.ElementsBefore, sum.ElementsAfter = rd.elements0, rd.elements()
	sum.Granularity = rd.granularity()
}

// predictedNote says, in the closing line, how many candidates were
// predicted without a test, and why.
func (rd *reducer) predictedNote(sum *report.Summary) string {
	if sum.Predicted == 0 {
		return ""
	}
	why := "parse"
	if rd.TypeCheck {
		why = "parse or type-check"
	}
	why = "they did not " + why
	if n := rd.unsimpler.Load(); n > 0 {
		why = fmt.Sprintf("%s, or (%d of them) would not have made the input smaller", why, n)
	}
	return fmt.Sprintf(" (and %d candidates predicted unresolved without a test: %s)", sum.Predicted, why)
}

// page is what the report shows of a single input: the result and its
// difference from the original.
func (rd *reducer) page() report.Page {
	if len(rd.ins) != 1 {
		return report.Page{}
	}
	in := rd.ins[0]
	orig := in.path
	if in.backup != "" {
		orig = in.backup
	}
	data, err := in.original()
	if err != nil {
		return report.Page{Result: string(in.data)}
	}
	o, _ := decomp.Lines{}.Cut(data)
	n, _ := decomp.Lines{}.Cut(in.data)
	return report.Page{Result: string(in.data), Diff: decomp.Diff(o, n).Unified(orig, in.dest, 3)}
}

// argReducer is the job of wynot reduce --argv: it reduces the command's
// argument list (TSE 2002 §4.1, GCC options); the changes are the
// arguments after the program, and the tests run in the current
// directory.
type argReducer struct {
	*Reduction
	args   []string
	result []string
}

func (ar *argReducer) pick(c dd.Config) []string {
	out := make([]string, len(c))
	for i, x := range c {
		out[i] = ar.args[x]
	}
	return out
}

// Begin starts from the whole argument list.
func (ar *argReducer) Begin() command.Begin {
	return command.Begin{Failing: runner.Candidate{Args: ar.args}, What: "original command", Size: len(ar.args), Unit: "arguments", Algorithm: "ddmin"}
}

// Search runs ddmin over the arguments; the shortest failing list so
// far is written to -o.
func (ar *argReducer) Search(ctx context.Context, s *command.Session) (command.Found, error) {
	ar.result = ar.args
	res, err := s.Search(ctx, "arguments", len(ar.args), dd.Minimize, dd.Options{Variant: ar.Variant},
		func(c dd.Config) runner.Candidate { return runner.Candidate{Args: ar.pick(c)} },
		func(st dd.Step) {
			n := len(st.Config)
			s.Progress.Update(func(ps *report.Status) { ps.Size = n })
		})
	if res.Fail != nil {
		ar.result = ar.pick(res.Fail)
	}
	if ar.Output != "" {
		if werr := command.WriteAtomic(ar.Output, []byte(ar.line()+"\n"), 0o644); werr != nil && err == nil {
			err = command.InputError("writing %s: %v", ar.Output, werr)
		}
	}
	return command.Found{Minimal: res.Minimal, Kept: "the shortest failing argument list so far is shown",
		Confirm: []command.Check{{Candidate: runner.Candidate{Args: ar.result}, Want: dd.Fail, What: "the result"}}}, err
}

// line is the reduced command line.
func (ar *argReducer) line() string {
	return command.ShellQuote(append([]string{ar.Test.Argv[0]}, ar.result...))
}

// Close fills in the summary and shows the reduced command line.
func (ar *argReducer) Close(sum *report.Summary, end command.End) command.Closing {
	sum.SizeBefore, sum.ElementsBefore = len(ar.args), len(ar.args)
	sum.SizeAfter, sum.ElementsAfter = len(ar.result), len(ar.result)
	sum.Granularity = "arguments"
	sum.Result = ar.line()
	return command.Closing{
		Head: []string{fmt.Sprintf("reduced %s to %s in %s, %.1fs", report.Plural(len(ar.args), "argument"),
			report.Plural(len(ar.result), "argument"), report.Plural(sum.Tests, "test"), sum.Seconds),
			"still failing: " + sum.Result},
		Page: func() report.Page { return report.Page{Result: ar.line() + "\n"} },
	}
}
