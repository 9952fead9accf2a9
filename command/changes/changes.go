// Package changes is wynot changes: it finds the failure-inducing code
// changes between a working and a failing version of a program ("Yesterday,
// my program worked. Today, it does not. Why?", FSE 1999). The changes
// are the hunks of the diff between two source trees, or first the
// commits between two git revisions and then the hunks of the
// failure-inducing commit; they are searched by dd with interference or
// dd+, grouped by directory, file and declaration, with a
// failure-resolution loop for configurations that do not build, and then
// refined to single changed lines. The changes themselves (diffs, groups,
// what a change needs to build, trees and workspaces) are package
// codediff.
package changes

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/dd"
	"github.com/wynot/wynot/domain/codediff"
	"github.com/wynot/wynot/domain/filetree"
	"github.com/wynot/wynot/internal/enum"
	"github.com/wynot/wynot/keep"
	"github.com/wynot/wynot/runner"
)

// Command is wynot changes.
var Command = &command.Command{Name: "changes", Section: "Changes", Flags: flags}

func flags(fs *flag.FlagSet, f *command.Flags) command.Maker {
	// The test's exit status reads as git bisect run reads it, unless the
	// failure is stated otherwise.
	f.Convention = runner.Bisect
	f.ConventionForCommand = true
	r := &Changes{Group: codediff.Auto, Algorithm: DD}
	fs.BoolVar(&r.Git, "git", false, "OLD and NEW are git revisions")
	fs.StringVar(&r.Repo, "C", "", "the git repository")
	fs.BoolVar(&r.AllowDirty, "allow-dirty", false, "run although the worktree has uncommitted changes")
	fs.Func("paths", "with --git: only commits that change these files, directories or patterns (comma-separated, from the repository's top) are candidates, as with git bisect start -- PATHS; . takes every commit", func(v string) error {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				r.Paths = append(r.Paths, p)
			}
		}
		return nil
	})
	fs.IntVar(&r.Context, "context", 2, "unchanged lines that separate hunks")
	fs.TextVar(&r.Group, "group", codediff.Auto, "none, dirs, files, decls, idents or auto")
	fs.TextVar(&r.Algorithm, "algorithm", DD, "dd, ddplus or ddmin")
	fs.BoolVar(&r.NoResolve, "no-resolve", false, "test configurations as they are: no changes added from the source or from build messages")
	fs.BoolVar(&r.NoRefine, "no-refine", false, "do not split hunks into single lines")
	fs.BoolVar(&r.NoPredict, "no-predict", false, "build every configuration: none is predicted unresolved because its Go code does not type-check")
	return func(ctx context.Context, inv *command.Invocation) (command.Job, command.Workload, error) {
		none := command.Workload{}
		if r.Git && len(inv.Args) == 1 {
			// GOOD..BAD, as git log takes a range: the two ends.
			if good, bad, ok := strings.Cut(inv.Args[0], ".."); ok {
				if good == "" || bad == "" || strings.HasPrefix(bad, ".") {
					return nil, none, command.UsageError("want GOOD BAD (or GOOD..BAD), got %q", inv.Args[0])
				}
				inv.Args = []string{good, bad}
			}
		}
		if len(inv.Args) != 2 {
			what := "OLD_DIR NEW_DIR"
			if r.Git {
				what = "GOOD BAD"
			}
			return nil, none, command.UsageError("want %s, got %d arguments", what, len(inv.Args))
		}
		if r.Context < 0 {
			return nil, none, command.UsageError("--context must be at least 0")
		}
		if r.Repo != "" && !r.Git {
			return nil, none, command.UsageError("-C is for --git")
		}
		if len(r.Paths) > 0 && !r.Git {
			return nil, none, command.UsageError("--paths is for --git")
		}
		// A command's failure is what its output shows, as for every
		// command; its exit status alone, by the git bisect convention,
		// only when asked for with --convention.
		inv.Test.ExitStatus = inv.IsSet("convention") && inv.Test.FailOn == nil && inv.Test.Script == ""
		r.Old, r.New = inv.Args[0], inv.Args[1]
		r.Test, r.Out, r.Output = inv.Test, inv.Output, inv.Flags.Output
		if err := inv.Lock(r.uses()); err != nil {
			return nil, none, err
		}
		return r.job(ctx)
	}
}

// Algorithm is the search over the changes: the values of --algorithm.
type Algorithm int

// The algorithms.
const (
	DD     Algorithm = iota // dd with interference (FSE 1999 Fig. 6)
	DDPlus                  // dd+ (FSE 1999 Fig. 8)
	DDMin                   // ddmin (TSE 2002 Fig. 5)
)

var algorithmNames = []string{"dd", "ddplus", "ddmin"}

func (a Algorithm) String() string { return enum.Name(algorithmNames, a, "Algorithm") }

// MarshalText returns the algorithm's name.
func (a Algorithm) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads an algorithm by name.
func (a *Algorithm) UnmarshalText(b []byte) (err error) {
	*a, err = enum.Parse[Algorithm](algorithmNames, string(b))
	return err
}

// dd is the engine's algorithm.
func (a Algorithm) dd() dd.Algorithm {
	return [...]dd.Algorithm{dd.Interference, dd.Plus, dd.Minimize}[a]
}

// Changes is `wynot changes`.
type Changes struct {
	// Old and New are the working and the failing version: directories,
	// or with Git revisions of the repository at Repo.
	Old, New string
	Git      bool
	Repo     string // with Git: a directory in the repository ("" is the current one)
	// Paths, with Git, are the only files whose changes can change the
	// outcome, as git bisect start -- PATHS takes them: a commit that
	// changes none of them is not a candidate (its parent and it are
	// still tested before it is named). Without Paths, the commits that
	// change only files no build reads are not candidates
	// (codediff.Reads).
	Paths []string
	// AllowDirty runs on a repository whose worktree has uncommitted
	// changes (they are not part of either revision).
	AllowDirty bool

	Test command.Test
	Out  command.Output

	// Context is how many unchanged lines at least separate two hunks
	// (FSE 1999 §8 used 2).
	Context   int
	Group     codediff.Grouping
	Algorithm Algorithm
	NoResolve bool   // no failure-resolution loop
	NoRefine  bool   // stop at hunks; do not split them into single lines
	NoPredict bool   // build every configuration, even one that does not type-check
	Output    string // -o: write the failure-inducing patch here
}

// uses are what the run reads and writes, for its lock
// (command.Invocation.Lock): the two versions' directories it reads,
// and the patch it writes (-o). A repository (--git) is not locked: the
// run only reads it (rev-parse, rev-list, merge-base, ls-tree,
// diff-tree, cat-file, and status with --no-optional-locks, so not even
// the index is refreshed), never writes its worktree, index, refs or
// objects, and takes none of git's locks (index.lock and the like);
// other runs on it, and reductions of its files in place, go on side by
// side.
func (r *Changes) uses() []keep.Use {
	var us []keep.Use
	if !r.Git {
		us = append(us, keep.Use{Path: r.Old, Doing: "reads the old version " + keep.Quote(r.Old)},
			keep.Use{Path: r.New, Doing: "reads the new version " + keep.Quote(r.New)})
	}
	if r.Output != "" {
		us = append(us, keep.Use{Path: r.Output, Write: true, Doing: "writes its patch to " + keep.Quote(r.Output) + " (-o)"})
	}
	return us
}

// job checks the command line, reads the versions and makes the job.
func (r *Changes) job(ctx context.Context) (command.Job, command.Workload, error) {
	if r.Output != "" {
		if st, err := os.Stat(r.Output); err == nil && st.IsDir() {
			return nil, command.Workload{}, command.InputError("-o %s is a directory; give a file for the patch", keep.Quote(r.Output))
		}
		if err := keep.CheckWritable(filepath.Dir(r.Output)); err != nil {
			return nil, command.Workload{}, command.InputError("-o %s: %v", keep.Quote(r.Output), keep.UnwrapPath(err))
		}
	}
	if r.Git {
		return r.gitJob(ctx)
	}
	return r.dirJob()
}

// readDir reads a version given as a directory.
func readDir(dir, what string) (*codediff.Tree, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, command.InputError("the %s version %s: %v", what, keep.Quote(dir), errors.Unwrap(err))
	}
	if !st.IsDir() {
		return nil, command.InputError("the %s version %s is not a directory", what, keep.Quote(dir))
	}
	t, err := filetree.ReadTree(dir)
	if err != nil {
		return nil, command.InputError("reading the %s version: %v", what, err)
	}
	return t, nil
}

// dirJob makes the job for two directories.
func (r *Changes) dirJob() (command.Job, command.Workload, error) {
	none := command.Workload{}
	old, err := readDir(r.Old, "old")
	if err != nil {
		return nil, none, err
	}
	nw, err := readDir(r.New, "new")
	if err != nil {
		return nil, none, err
	}
	set := codediff.Compare(old, nw, r.Context)
	if set.Len() == 0 {
		return nil, none, command.InputError("the old and the new version are the same: no changes to search")
	}
	e := &search{Changes: r, ws: filetree.NewWorkspaces(old)}
	base := map[string]*codediff.File{}
	pass := e.hunkCandidate(set, base, nil)
	e.begin = command.Begin{Failing: e.hunkCandidate(set, base, dd.All(set.Len())), What: "new version",
		Passing: &pass, PassingWhat: "the old version"}
	e.run = func(ctx context.Context) error { return e.hunks(ctx, set, base, r.Old, "") }
	wl := workload(old, nw)
	wl.Tree, wl.InTree, wl.Copies = []string{r.New, r.Old}, inTrees(old, nw), e.ws
	return e, wl, nil
}

// inTrees says whether a path (a file or a directory, relative to the
// trees' roots) is in one of the trees.
func inTrees(trees ...*codediff.Tree) func(string) bool {
	return func(rel string) bool {
		for _, t := range trees {
			if _, ok := t.Files[rel]; ok {
				return true
			}
			for p := range t.Files {
				if strings.HasPrefix(p, rel+"/") {
					return true
				}
			}
		}
		return false
	}
}

// workload says how the tests run: in work directories sized for the
// larger tree.
func workload(trees ...*codediff.Tree) command.Workload {
	size := 0
	for _, t := range trees {
		n := 0
		for _, f := range t.Files {
			n += len(f.Data)
		}
		size = max(size, n)
	}
	return command.Workload{Size: size}
}
