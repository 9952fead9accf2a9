package inputs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/decomp"
	"github.com/wynot/wynot/grammar"
	"github.com/wynot/wynot/internal/session"
	"github.com/wynot/wynot/report"
	"github.com/wynot/wynot/runner"
)

// Splits are the values of --split for reduce; "tree:LANG" names a
// tree-sitter grammar besides (grammar.Names).
var Splits = []string{"auto", "text", "go", "lines", "brackets", "tokens", "runes", "bytes"}

// Reduction is `wynot reduce`: it simplifies failing input files (or, with
// Argv, the argument list of the failing command) to a 1-minimal one
// (ddmin, TSE 2002 Fig. 5).
type Reduction struct {
	Files []string // the input files
	Args  bool     // reduce the arguments of Test.Argv instead of files
	Test  Test
	Out   Output
	Split string // one of Splits or tree:LANG; "" is auto
	// TypeCheck predicts Go candidates with new type errors (go/types)
	// Unresolved without running the test.
	TypeCheck bool
	// With are files the test needs beside the candidate, copied
	// unchanged into every test's directory.
	With   []string
	Jobs   int
	Output string // -o: where results go instead of replacing the inputs
	// Variant is the test order of ddmin.
	Variant dd.Variant
}

// input is one file being reduced.
type input struct {
	path   string
	name   string // its name in the work directory
	orig   []byte
	data   []byte // the smallest failing content so far
	mode   fs.FileMode
	dest   string // where the result goes
	backup string // FILE.orig (or FILE.orig.N), when the input is replaced in place
	// madeBackup says backup was written by this run; an existing one
	// is reused only for the same interrupted reduction (see lineage).
	madeBackup bool
	backupSum  string // the digest of what backup holds (for the lineage)
	written    []byte // what dest holds now (nil: untouched)
	dirty      bool
	syn        *syntax // the input's language, when it is reduced as a syntax tree
}

// Run runs the reduction. The summary is filled in as far as the run got,
// also when it returns an error; errors are *ExitError where the exit
// status matters.
func (r *Reduction) Run(ctx context.Context) (*report.Summary, error) {
	sum := &report.Summary{Command: "reduce", Algorithm: "ddmin"}
	split := r.Split
	if split == "" {
		split = "auto"
	}
	if lang, ok := strings.CutPrefix(split, "tree:"); ok {
		if _, err := grammar.Lookup(lang); err != nil {
			return sum, session.InputError("--split %s: %v", split, err)
		}
	} else if !contains(Splits, split) {
		return sum, session.InputError("unknown --split %q (want one of %s, or tree:LANG with LANG one of %s)", split,
			strings.Join(Splits, ", "), strings.Join(grammar.Names(), ", "))
	}
	if r.Args {
		if len(r.Files) > 0 {
			return sum, session.InputError("--argv reduces the command's arguments; give no input files")
		}
		return sum, r.runArgs(ctx, sum)
	}
	if len(r.Files) == 0 {
		return sum, session.InputError("no input file to reduce")
	}
	ins, err := r.openInputs(split)
	if err != nil {
		return sum, err
	}
	total := 0
	for _, in := range ins {
		total += len(in.orig)
	}
	with, err := r.readWith(ins)
	if err != nil {
		return sum, err
	}
	s, err := session.Open("reduce", r.Test, r.Out, r.Jobs, false, len(ins), total)
	if err != nil {
		return sum, err
	}
	defer s.Close()
	red := &reducer{Reduction: r, s: s, ins: ins, split: split, sum: sum, with: with}
	return sum, red.run(ctx)
}

// readWith reads the --with files.
func (r *Reduction) readWith(ins []*input) ([]runner.File, error) {
	var fs []runner.File
	for _, p := range r.With {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, session.InputError("--with %s: %v", p, errors.Unwrap(err))
		}
		name := filepath.Base(p)
		for _, in := range ins {
			if in.name == name {
				return nil, session.InputError("--with %s has the name of the input %s; the test sees them side by side in one directory", p, in.path)
			}
		}
		fs = append(fs, runner.File{Name: name, Data: data})
	}
	return fs, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// openInputs reads the inputs and decides where their results go; it
// writes FILE.orig for inputs reduced in place.
func (r *Reduction) openInputs(split string) ([]*input, error) {
	var ins []*input
	names := map[string]string{}
	for _, p := range r.Files {
		st, err := os.Stat(p)
		if err != nil {
			return nil, session.InputError("input %s: %v", p, errors.Unwrap(err))
		}
		if st.IsDir() {
			return nil, session.InputError("input %s is a directory; give files", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, session.InputError("input %s: %v", p, err)
		}
		if len(data) == 0 {
			return nil, session.InputError("input %s is empty: nothing to reduce", p)
		}
		if split == "runes" && !utf8.Valid(data) {
			return nil, session.InputError("input %s is not UTF-8 text, so it cannot be cut into runes; use --split bytes", p)
		}
		name := filepath.Base(p)
		if other, ok := names[name]; ok {
			return nil, session.InputError("inputs %s and %s have the same name; the test sees them side by side in one directory", other, p)
		}
		names[name] = p
		in := &input{path: p, name: name, orig: data, data: data, mode: st.Mode()}
		if lang := langOf(split, p); lang != "" {
			syn, err := newSyntax(lang, data, r.TypeCheck && lang == "go")
			switch {
			case err != nil && syntaxSplit(split):
				return nil, session.InputError("input %s %v; reduce it with --split auto or lines", p, err)
			case err != nil:
				fmt.Fprintf(messages(r.Out), "wynot: input %s %v; reducing it as text\n", p, err)
			default:
				in.syn = syn
			}
		}
		ins = append(ins, in)
	}
	if r.TypeCheck && !slices.ContainsFunc(ins, func(in *input) bool { return in.syn != nil && in.syn.lang == "go" }) {
		return nil, session.InputError("--typecheck applies to Go inputs that parse; none of the inputs is one")
	}
	if err := r.destinations(ins); err != nil {
		return nil, err
	}
	return ins, nil
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
				return session.InputError("-o %s: with several inputs, -o names a directory", r.Output)
			}
			if err := os.Mkdir(r.Output, 0o755); err != nil {
				return session.InputError("-o %s: %v", r.Output, err)
			}
			isDir = true
		}
		for _, in := range ins {
			in.dest = r.Output
			if isDir {
				in.dest = filepath.Join(r.Output, in.name)
			}
			if err := session.CheckWritable(filepath.Dir(in.dest)); err != nil {
				return session.InputError("cannot write the result to %s: %v", in.dest, err)
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
			in.dest = session.FreePath(in.name+".reduced", "")
			if err := session.CheckWritable("."); err != nil {
				return session.InputError("input %s is not a regular file, so its result goes to the current directory, which is not writable: %v; give -o", in.path, err)
			}
			fmt.Fprintf(messages(r.Out), "wynot: input %s is not a regular file; it stays as it is, and the result goes to %s\n", in.path, in.dest)
		default:
			in.dest = in.path
			if err := session.CheckWritable(filepath.Dir(in.path)); err != nil {
				return session.InputError("cannot replace %s: %v; give -o", in.path, err)
			}
			in.backup, in.backupSum = backupFor(in, messages(r.Out))
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
func backupFor(in *input, msgs io.Writer) (path, sum string) {
	base := in.path + ".orig"
	old, err := os.ReadFile(base)
	if err != nil {
		return base, digest(in.orig)
	}
	if lin, ok := readLineage(in.path); ok && lin.Orig == digest(old) && lin.Last == digest(in.orig) {
		fmt.Fprintf(msgs, "wynot: %s holds the original of an interrupted reduction of %s; keeping it, and reducing %s as it is now\n", base, in.path, in.path)
		return base, lin.Orig
	}
	p := session.FreePath(base, "")
	fmt.Fprintf(msgs, "wynot: %s exists and is not the original of %s; the original will be kept in %s\n", base, in.path, p)
	return p, digest(in.orig)
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
		if err := session.WriteAtomic(in.backup, in.orig, in.mode); err != nil {
			return session.InputError("cannot keep the original in %s: %v; give -o", in.backup, err)
		}
		in.madeBackup = true
		writeLineage(in.path, lineage{Orig: in.backupSum, Last: digest(in.orig)})
	}
	return nil
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

func messages(o Output) io.Writer {
	if o.Stderr == nil || o.Quiet {
		return io.Discard
	}
	return o.Stderr
}

func same(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

type reducer struct {
	*Reduction
	s     *session.Session
	ins   []*input
	split string
	sum   *report.Summary
	with  []runner.File // files beside the candidate (--with)
	mu    sync.Mutex
}

func (rd *reducer) candidate(fi int, data []byte) runner.Candidate {
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
		n += len(in.data)
	}
	return n
}

func (rd *reducer) run(ctx context.Context) error {
	s, sum := rd.s, rd.sum
	for _, in := range rd.ins {
		sum.Files = append(sum.Files, in.dest)
		sum.SizeBefore += len(in.orig)
	}
	what := "original input"
	if len(rd.ins) > 1 {
		what = "original inputs"
	}
	if err := s.CheckOriginal(ctx, rd.candidate(-1, nil), what); err != nil {
		rd.finish(false, false, false)
		return err
	}
	if err := rd.keepOriginals(); err != nil {
		rd.finish(false, false, false)
		return err
	}
	defer rd.dropBackups()
	sum.Signature = s.Signature()
	sum.ElementsBefore = rd.elements()
	s.StartProgress(rd.size())
	s.Say("the %s fails: %s", what, sum.Signature)
	s.Say("reducing %s, %s at a time, %s per test at most", report.Plural(sum.SizeBefore, "byte"),
		report.Plural(s.Jobs, "test"), s.Tester.Command.Timeout)

	interrupted, certified := false, false
	var err error
loop:
	for round := 1; ; round++ {
		changed, allMinimal := false, true
		for fi := range rd.ins {
			// Phase 1: the tree passes until none shrinks the input;
			// phase 2: the text passes. A round that changed anything
			// is followed by another, so the result is minimal for
			// every pass.
			for phase := 1; phase <= 2; phase++ {
				for {
					tree, text, perr := rd.passes(rd.ins[fi])
					if perr != nil {
						err = perr
						break loop
					}
					ps := tree
					if phase == 2 {
						ps = text
					}
					shrankHere := false
					for _, sp := range ps {
						minimal, shrank, perr := rd.pass(ctx, fi, sp)
						shrankHere = shrankHere || shrank
						allMinimal = allMinimal && minimal
						if perr != nil {
							err = perr
							interrupted = ctx.Err() != nil
							break loop
						}
					}
					changed = changed || shrankHere
					if phase == 2 || !shrankHere {
						break
					}
				}
			}
		}
		if !changed {
			certified = allMinimal
			break
		}
		s.TestLog.Printf("Round %d done: %s\n", round, report.Plural(rd.size(), "byte"))
	}
	if err == nil {
		if ferr := rd.format(ctx); ferr != nil {
			err = ferr
			interrupted = ctx.Err() != nil
		}
	}
	for _, in := range rd.ins {
		if werr := rd.save(in, true); werr != nil && err == nil {
			err = werr
		}
	}
	confirmed := false
	if err == nil {
		confirmed, err = rd.confirm(ctx)
		interrupted = interrupted || ctx.Err() != nil
	}
	rd.dropBackups()
	rd.finish(certified && err == nil, confirmed, interrupted)
	if interrupted {
		s.Progress.Close()
		rd.human(false, false)
		return &session.ExitError{Code: session.ExitInterrupted, Err: fmt.Errorf("interrupted; the smallest failing input so far is kept")}
	}
	if err != nil {
		return err
	}
	s.Progress.Close()
	rd.human(certified, confirmed)
	return nil
}

// format prints each input in a language with a formatter (Go: gofmt)
// as the formatter would, and keeps that form when it still fails. The
// token and character passes leave text unformatted; formatting changes
// no syntax tree, so the result stays minimal.
func (rd *reducer) format(ctx context.Context) error {
	for fi, in := range rd.ins {
		if in.syn == nil || in.syn.format == nil {
			continue
		}
		out, err := in.syn.format(in.data)
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
		rd.sum.Formatted = append(rd.sum.Formatted, in.dest)
	}
	return nil
}

// confirm tests the result once more, without the cache.
func (rd *reducer) confirm(ctx context.Context) (bool, error) {
	rec, err := rd.s.Tester.Retest(ctx, rd.candidate(-1, nil))
	rd.s.Mu.Lock()
	rd.s.Checks++
	rd.s.Mu.Unlock()
	if err != nil {
		return false, err
	}
	if rec.Outcome != dd.Fail {
		rd.s.Say("warning: run again, the result did not reproduce the failure (%s: %s); the test may be flaky", rec.Outcome, rec.Detail)
		return false, nil
	}
	return true, nil
}

// passes lists the passes of one round over input in: the tree passes
// of an input in a known language (none for text), and the text passes:
// for auto, coarse to fine, lines, bracket groups (whole, then contents)
// at each depth, tokens, and characters (bytes for input that is not
// UTF-8); for an input in a known language only tokens and characters,
// and only where they leave it parsing.
func (rd *reducer) passes(in *input) (tree, text []decomp.Pass, err error) {
	data := in.data
	if in.syn != nil {
		// The input parses: the original was checked, and every
		// candidate since was finished by the language.
		if tree, err = in.syn.passes(data); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", in.name, err)
		}
		if rd.split == "auto" {
			text = []decomp.Pass{decomp.Split(decomp.Tokens{}, in.syn.finish), decomp.Split(decomp.Chars(data), in.syn.finish)}
		}
		return tree, text, nil
	}
	var sps []decomp.Splitter
	brackets := func() []decomp.Splitter {
		var ps []decomp.Splitter
		depth := decomp.MaxDepth(data)
		for d := range depth {
			ps = append(ps, decomp.Brackets{Depth: d})
		}
		for d := range depth {
			ps = append(ps, decomp.Brackets{Depth: d, Contents: true})
		}
		return ps
	}
	switch rd.split {
	case "lines":
		sps = []decomp.Splitter{decomp.Lines{}}
	case "tokens":
		sps = []decomp.Splitter{decomp.Tokens{}}
	case "runes":
		sps = []decomp.Splitter{decomp.Runes{}}
	case "bytes":
		sps = []decomp.Splitter{decomp.Bytes{}}
	case "brackets":
		sps = brackets()
	default:
		sps = append([]decomp.Splitter{decomp.Lines{}}, brackets()...)
		sps = append(sps, decomp.Tokens{}, decomp.Chars(data))
	}
	for _, sp := range sps {
		text = append(text, decomp.Split(sp, nil))
	}
	return nil, text, nil
}

// granularity names the finest pieces of the split.
func (rd *reducer) granularity() string {
	if syntaxSplit(rd.split) {
		return "syntax tree transformations"
	}
	switch rd.split {
	case "lines":
		return "lines"
	case "tokens":
		return "tokens"
	case "bytes":
		return "bytes"
	case "brackets":
		return "bracket groups"
	case "runes":
		return "characters"
	}
	for _, in := range rd.ins {
		if !utf8.Valid(in.data) {
			return "bytes"
		}
	}
	return "characters"
}

// elements counts the finest pieces of all inputs.
func (rd *reducer) elements() int {
	n := 0
	for _, in := range rd.ins {
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
		p, err := sp.Cut(in.data)
		if err == nil {
			n += p.Len()
		}
	}
	return n
}

// pass runs ddmin on one input decomposed by one pass. It reports whether
// the search completed (the result is 1-minimal for this decomposition)
// and whether the input shrank. Candidates the plan rejects (they do not
// parse) are predicted Unresolved without a test (seed 003, "predicting
// test outcomes").
func (rd *reducer) pass(ctx context.Context, fi int, sp decomp.Pass) (minimal, shrank bool, err error) {
	in, s := rd.ins[fi], rd.s
	plan, err := sp.Plan(in.data)
	if err != nil {
		return false, false, fmt.Errorf("%s: %s: %w", in.name, sp.Name(), err)
	}
	if plan.Len() == 0 {
		return true, false, nil
	}
	before := len(in.data)
	name := sp.Name()
	if len(rd.ins) > 1 {
		name += " of " + in.name
	}
	s.Progress.Update(func(st *report.Status) { st.Pass, st.Granularity = name, 0 })
	s.TestLog.Printf("Pass %s: %s\n", name, report.Plural(plan.Len(), "change"))
	s.Mu.Lock()
	runs0, predicted0 := s.Runs, s.Predicted
	s.Mu.Unlock()
	t0 := time.Now()

	apply := func(c dd.Config) ([]byte, bool) {
		data, err := plan.Apply(c)
		return data, err == nil
	}
	res, err := s.SearchTests(ctx, name, plan.Len(), dd.Minimize, dd.Options{Variant: rd.Variant},
		func(ctx context.Context, c dd.Config) (runner.Test, error) {
			data, err := plan.Apply(c)
			if err != nil {
				s.Mu.Lock()
				s.Predicted++
				s.Mu.Unlock()
				return runner.Test{Outcome: dd.Unresolved, Predicted: true, Detail: err.Error()}, nil
			}
			return s.Tester.Test(ctx, rd.candidate(fi, data))
		},
		func(st dd.Step) {
			if st.Rule == dd.ReduceToSubset || st.Rule == dd.ReduceToComplement {
				if data, ok := apply(st.Config); ok {
					rd.improve(in, data)
				}
			}
		})
	// The result so far is the best even when the search was cut short.
	if res.Fail != nil {
		if best, ok := apply(res.Fail); ok && len(best) < len(in.data) {
			rd.improve(in, best)
		}
	}
	s.Mu.Lock()
	runs, predicted := s.Runs-runs0, s.Predicted-predicted0
	s.Mu.Unlock()
	st := report.PassStats{Name: sp.Name(), File: fileLabel(rd, in), Tests: runs, Predicted: predicted,
		BytesBefore: before, BytesAfter: len(in.data), Seconds: time.Since(t0).Seconds()}
	rd.sum.Passes = append(rd.sum.Passes, st)
	s.TestLog.Printf("Pass %s done: %s, %d predicted, %s removed\n", name, report.Plural(runs, "test"), predicted,
		report.Plural(before-len(in.data), "byte"))
	var nf *dd.NotFailingError
	if errors.As(err, &nf) {
		return false, false, session.NotReproduced("the input that failed before does not fail any more (%s); the test is flaky: try --repeat 3", nf.Outcome)
	}
	return err == nil && res.Minimal, len(in.data) < before, err
}

func fileLabel(rd *reducer, in *input) string {
	if len(rd.ins) > 1 {
		return in.name
	}
	return ""
}

// improve records a smaller failing content and writes it out at once,
// atomically, so that the file holds the smallest failing input found
// whenever wynot stops, even by SIGKILL. (Only the last write is synced
// to the disk: a crash of the whole system may lose the newest few.)
func (rd *reducer) improve(in *input, data []byte) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if len(data) >= len(in.data) {
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
	write := session.WriteAtomic
	if !sync {
		write = session.ReplaceFile
	}
	if err := write(in.dest, in.data, in.mode); err != nil {
		return fmt.Errorf("writing the result to %s: %w", in.dest, err)
	}
	in.written, in.dirty = in.data, false
	if in.backup != "" {
		writeLineage(in.path, lineage{Orig: in.backupSum, Last: digest(in.data)})
	}
	return nil
}

// finish fills in the summary.
func (rd *reducer) finish(minimal, confirmed, interrupted bool) {
	s, sum := rd.s, rd.sum
	s.Mu.Lock()
	defer s.Mu.Unlock()
	sum.Tests = s.Runs + s.Checks
	sum.Checks = s.Checks
	sum.CacheHits = s.CacheHits
	sum.Predicted = s.Predicted
	sum.Flaky = s.Flaky
	sum.Outcomes = s.Outcomes
	sum.SizeAfter = rd.size()
	sum.ElementsAfter = rd.elements()
	sum.Granularity = rd.granularity()
	sum.Minimal = minimal
	sum.Confirmed = confirmed
	sum.Interrupted = interrupted
	sum.Seconds = time.Since(s.Start).Seconds()
	if len(rd.ins) == 1 {
		sum.Result = rd.ins[0].dest
	} else {
		sum.Result = filepath.Dir(rd.ins[0].dest)
	}
}

// human prints the closing summary for people.
func (rd *reducer) human(minimal, confirmed bool) {
	s, sum := rd.s, rd.sum
	if s.Quiet {
		return
	}
	pct := 100 * float64(sum.SizeAfter) / float64(max(sum.SizeBefore, 1))
	what := rd.ins[0].path
	if len(rd.ins) > 1 {
		what = report.Plural(len(rd.ins), "file")
	}
	predicted := ""
	if sum.Predicted > 0 {
		why := "parse"
		if rd.TypeCheck {
			why = "parse or type-check"
		}
		predicted = fmt.Sprintf(" (and %d candidates predicted unresolved without a test: they did not %s)", sum.Predicted, why)
	}
	fmt.Fprintf(s.Stderr, "wynot: reduced %s from %s to %s (%s) in %s%s, %.1fs\n", what,
		report.Plural(sum.SizeBefore, "byte"), report.Plural(sum.SizeAfter, "byte"), report.Percent(pct),
		report.Plural(sum.Tests, "test"), predicted, sum.Seconds)
	switch {
	case sum.Interrupted:
		fmt.Fprintf(s.Stderr, "wynot: interrupted: the result is the smallest failing input found so far, not 1-minimal\n")
	case minimal && syntaxSplit(rd.split):
		fmt.Fprintf(s.Stderr, "wynot: the result is 1-minimal: making any single one of its remaining syntax tree transformations makes the failure go away\n")
	case minimal && slices.ContainsFunc(rd.ins, func(in *input) bool { return in.syn != nil }):
		fmt.Fprintf(s.Stderr, "wynot: the result is 1-minimal: making any single one of its remaining syntax tree transformations, or removing any single one of its tokens or %s, makes the failure go away or leaves source that does not parse\n", rd.granularity())
	case minimal:
		fmt.Fprintf(s.Stderr, "wynot: the result is 1-minimal: removing any single one of its %s makes the failure go away\n", rd.granularity())
	default:
		fmt.Fprintf(s.Stderr, "wynot: the result is not certified 1-minimal\n")
	}
	if !sum.Interrupted && !confirmed {
		fmt.Fprintf(s.Stderr, "wynot: warning: the result did not fail again when rerun; the test may be flaky\n")
	}
	for _, in := range rd.ins {
		switch {
		case in.written == nil && in.dest == in.path && in.backup != "":
			fmt.Fprintf(s.Stderr, "wynot: %s is unchanged: nothing smaller fails; the original is in %s\n", in.path, in.backup)
		case in.written == nil && in.dest == in.path:
			fmt.Fprintf(s.Stderr, "wynot: %s is unchanged: nothing smaller fails\n", in.path)
		case in.backup != "":
			fmt.Fprintf(s.Stderr, "wynot: %s now holds the result; the original is in %s\n", in.path, in.backup)
		default:
			fmt.Fprintf(s.Stderr, "wynot: result written to %s\n", in.dest)
		}
	}
}

// runArgs reduces the command's argument list (TSE 2002 §4.1, GCC
// options): the changes are the arguments after the program; tests run in
// the current directory.
func (r *Reduction) runArgs(ctx context.Context, sum *report.Summary) error {
	if r.Test.Script != "" || len(r.Test.Argv) < 2 {
		return session.InputError("--argv needs a command with arguments after --")
	}
	s, err := session.Open("reduce", r.Test, r.Out, r.Jobs, true, 0, 0)
	if err != nil {
		return err
	}
	defer s.Close()
	args := r.Test.Argv[1:]
	sum.Algorithm = "ddmin"
	sum.SizeBefore, sum.ElementsBefore = len(args), len(args)
	if err := s.CheckOriginal(ctx, runner.Candidate{Args: args}, "original command"); err != nil {
		return err
	}
	sum.Signature = s.Signature()
	s.StartProgress(len(args))
	pick := func(c dd.Config) []string {
		out := make([]string, len(c))
		for i, x := range c {
			out[i] = args[x]
		}
		return out
	}
	res, err := s.Search(ctx, "arguments", len(args), dd.Minimize, dd.Options{Variant: r.Variant},
		func(c dd.Config) runner.Candidate { return runner.Candidate{Args: pick(c)} },
		func(st dd.Step) {
			n := len(st.Config)
			s.Progress.Update(func(ps *report.Status) { ps.Size = n })
		})
	result := pick(res.Fail)
	s.Progress.Close()
	sum.Tests, sum.Checks, sum.CacheHits, sum.Outcomes = s.Runs+s.Checks, s.Checks, s.CacheHits, s.Outcomes
	sum.SizeAfter, sum.ElementsAfter = len(result), len(result)
	sum.Granularity = "arguments"
	sum.Minimal = err == nil && res.Minimal
	sum.Interrupted = ctx.Err() != nil
	sum.Seconds = time.Since(s.Start).Seconds()
	sum.Result = session.ShellQuote(append([]string{r.Test.Argv[0]}, result...))
	if r.Output != "" {
		if werr := session.WriteAtomic(r.Output, []byte(sum.Result+"\n"), 0o644); werr != nil && err == nil {
			err = session.InputError("writing %s: %v", r.Output, werr)
		}
	}
	if !r.Out.Quiet {
		fmt.Fprintf(s.Stderr, "wynot: reduced %s to %s in %s, %.1fs\n", report.Plural(len(args), "argument"),
			report.Plural(len(result), "argument"), report.Plural(sum.Tests, "test"), sum.Seconds)
		fmt.Fprintf(s.Stderr, "wynot: still failing: %s\n", sum.Result)
	}
	if sum.Interrupted {
		return &session.ExitError{Code: session.ExitInterrupted, Err: errors.New("interrupted; the shortest failing argument list so far is shown")}
	}
	return err
}
