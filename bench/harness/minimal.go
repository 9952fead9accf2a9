package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/wynot/wynot/runner"
)

// The check of a reported patch by brute force: the harness takes the
// diff wynot printed apart into the changes it names (its hunks or line
// edits), builds the old tree with every change but one applied, one
// tree per change, and runs the case's test on each. The patch is
// 1-minimal at the printed granularity when the patch itself fails and
// none of these trees does (a tree that does not build, exit 125, shows
// nothing either way). A run fails when it fails as the new version
// does: the same exit status and the same failure as its output tells
// it (runner.Signature at --precision message, the definition wynot
// searches by: a client that no longer compiles is another failure than
// the regression it reports). Nothing of it is taken from wynot's claim.

// editLine is one line of a printed diff: a deletion of old line at
// (1-based), or an insertion standing after the first at old lines.
type editLine struct {
	del   bool
	at    int
	text  string
	noEOL bool // an inserted line that ends its file without a newline
}

// fileDiff is a file's part of a printed diff.
type fileDiff struct {
	path        string
	added, gone bool // a file the old tree lacks, or one the patch deletes
	lines       []editLine
}

var hunkRe = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@`)

// parseDiff reads the file diffs of a unified diff as wynot prints it.
func parseDiff(diff string) ([]*fileDiff, error) {
	var out []*fileDiff
	var f *fileDiff
	oldLine := 0
	inHunk := false   // past a hunk header of f: lines are content
	prevPlus := false // the line before was an inserted one
	// Lines end at "\n" alone: a file's lines keep their "\r" (bufio's
	// lines would lose it).
	for l := range strings.Lines(diff) {
		l = strings.TrimSuffix(l, "\n")
		wasPlus := prevPlus
		prevPlus = false
		switch {
		case strings.HasPrefix(l, "diff --git "):
			f, inHunk = &fileDiff{}, false
			out = append(out, f)
		case f == nil:
			return nil, fmt.Errorf("diff does not start with a file header: %q", l)
		case strings.HasPrefix(l, "@@ "):
			m := hunkRe.FindStringSubmatch(l)
			if m == nil {
				return nil, fmt.Errorf("bad hunk header %q", l)
			}
			oldLine, _ = strconv.Atoi(m[1])
			if m[2] == "0" {
				oldLine++ // an empty old range names the line before it
			}
			inHunk = true
		case inHunk && strings.HasPrefix(l, `\ No newline`):
			// It speaks of the line before it: only an inserted one
			// matters (a deleted or kept line is the old file's).
			if n := len(f.lines); n > 0 && wasPlus {
				f.lines[n-1].noEOL = true
			}
		case inHunk && strings.HasPrefix(l, "-"):
			f.lines = append(f.lines, editLine{del: true, at: oldLine, text: l[1:]})
			oldLine++
		case inHunk && strings.HasPrefix(l, "+"):
			f.lines = append(f.lines, editLine{at: oldLine - 1, text: l[1:]})
			prevPlus = true
		case inHunk:
			oldLine++ // context
		case strings.HasPrefix(l, "new file mode"):
			f.added = true
		case strings.HasPrefix(l, "deleted file mode"):
			f.gone = true
		case strings.HasPrefix(l, "rename ") || strings.HasPrefix(l, "similarity ") || strings.HasPrefix(l, "old mode") ||
			strings.HasPrefix(l, "new mode") || strings.HasPrefix(l, "Binary files"):
			return nil, fmt.Errorf("the brute-force check does not take %q", l)
		case strings.HasPrefix(l, "--- "):
			if p := strings.TrimPrefix(l, "--- "); p != "/dev/null" {
				f.path = strings.TrimPrefix(p, "a/")
			}
		case strings.HasPrefix(l, "+++ "):
			if p := strings.TrimPrefix(l, "+++ "); p != "/dev/null" {
				f.path = strings.TrimPrefix(p, "b/")
			}
		}
	}
	return out, nil
}

// nameRe reads the name wynot gives a change of a file: "p:a-b" (old
// lines a to b replaced), "p:k+n" (n lines inserted before old line k),
// "p:a-b (new file)" (lines a to b of a file the old tree lacks), "add
// p", "delete p".
var nameRe = regexp.MustCompile(`^(.*):(\d+)([-+])(\d+)( \(new file\))?$`)

// attribute assigns each line of the file diffs to the change that
// names it and returns, per change, the lines it holds (indexes into
// files[f].lines, keyed by f). It fails when a line belongs to no change
// or a change holds no line: then the printed diff cannot be taken apart
// by the names, and the check is not made.
func attribute(files []*fileDiff, names []string) ([]map[int][]int, error) {
	byPath := map[string]*fileDiff{}
	index := map[*fileDiff]int{}
	for i, f := range files {
		byPath[f.path] = f
		index[f] = i
	}
	owner := make([]map[int]int, len(files)) // line -> change
	for i := range files {
		owner[i] = map[int]int{}
	}
	newFileNext := map[*fileDiff]int{} // next line of an added file's parts
	out := make([]map[int][]int, len(names))
	for c := range names {
		out[c] = map[int][]int{}
	}
	// take gives change c the lines of f that match and no change holds
	// yet: all of them, or (n > 0) the first n.
	take := func(c int, f *fileDiff, n int, match func(editLine) bool) {
		fi := index[f]
		for k, l := range f.lines {
			if _, taken := owner[fi][k]; !taken && n != 0 && match(l) {
				owner[fi][k] = c
				out[c][fi] = append(out[c][fi], k)
				n--
			}
		}
	}
	// Insertions first, each its number of lines: a replacement's range
	// reaches the lines inserted right after it, and line edits inserted
	// at one place have one name (each takes the next line there). A
	// replacement is never followed right away by an insertion: at every
	// granularity wynot prints, the two would be one change.
	for c, name := range names {
		if m := nameRe.FindStringSubmatch(name); m != nil && m[3] == "+" && m[5] == "" && byPath[m[1]] != nil {
			k, _ := strconv.Atoi(m[2])
			n, _ := strconv.Atoi(m[4])
			take(c, byPath[m[1]], n, func(l editLine) bool { return !l.del && l.at == k-1 })
		}
	}
	for c, name := range names {
		take := func(f *fileDiff, match func(editLine) bool) { take(c, f, -1, match) }
		if p, ok := strings.CutPrefix(name, "add "); ok && byPath[p] != nil {
			take(byPath[p], func(editLine) bool { return true })
			continue
		}
		if p, ok := strings.CutPrefix(name, "delete "); ok && byPath[p] != nil {
			take(byPath[p], func(editLine) bool { return true })
			continue
		}
		m := nameRe.FindStringSubmatch(name)
		if m == nil || byPath[m[1]] == nil {
			return nil, fmt.Errorf("change %q names no file of the diff", name)
		}
		f := byPath[m[1]]
		a, _ := strconv.Atoi(m[2])
		b, _ := strconv.Atoi(m[4])
		switch {
		case m[5] != "":
			// A part of an added file: the printed file is its parts
			// applied, in order.
			n := b - a + 1
			fi, start := index[f], newFileNext[f]
			for k := start; k < start+n && k < len(f.lines); k++ {
				owner[fi][k] = c
				out[c][fi] = append(out[c][fi], k)
			}
			newFileNext[f] = start + n
		case m[3] == "+":
			// taken above
		default:
			take(f, func(l editLine) bool { return l.del && l.at >= a && l.at <= b || !l.del && l.at >= a-1 && l.at <= b })
		}
	}
	for c, name := range names {
		if len(out[c]) == 0 {
			return nil, fmt.Errorf("change %q holds no line of the printed diff", name)
		}
	}
	for fi, f := range files {
		if len(owner[fi]) != len(f.lines) {
			return nil, fmt.Errorf("%s: %d of its %d changed lines belong to no change named", f.path, len(f.lines)-len(owner[fi]), len(f.lines))
		}
	}
	return out, nil
}

// applyWithout writes into dst the files of old that the printed diff
// changes, with every change applied but skip (-1: all of them), and
// returns the paths written (a file the result lacks is removed). dst is
// a copy of old.
func applyWithout(old, dst string, files []*fileDiff, own []map[int][]int, skip int) error {
	for fi, f := range files {
		drop := map[int]bool{}
		if skip >= 0 {
			for _, k := range own[skip][fi] {
				drop[k] = true
			}
		}
		target := filepath.Join(dst, f.path)
		if f.gone && len(drop) > 0 {
			continue // the old file stays
		}
		var oldData []byte
		if !f.added && !f.gone {
			data, err := os.ReadFile(filepath.Join(old, f.path))
			if err != nil {
				return err
			}
			oldData = data
		}
		data, exists := patched(oldData, f, drop)
		if !exists {
			if err := os.Remove(target); err != nil && f.gone {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// patched is the file of the printed diff f with every change applied
// but the lines drop (indexes into f.lines), given its old content (nil
// for a file the old tree lacks): the new content, or exists false when
// the result lacks the file.
func patched(old []byte, f *fileDiff, drop map[int]bool) (data []byte, exists bool) {
	if f.gone {
		if len(drop) > 0 {
			return old, true
		}
		return nil, false
	}
	var oldLines []string
	if !f.added {
		oldLines = strings.SplitAfter(string(old), "\n")
		if oldLines[len(oldLines)-1] == "" {
			oldLines = oldLines[:len(oldLines)-1]
		}
	}
	dels := map[int]bool{}
	ins := map[int][]string{}
	for k, l := range f.lines {
		if drop[k] {
			continue
		}
		if l.del {
			dels[l.at] = true
		} else if l.noEOL {
			ins[l.at] = append(ins[l.at], l.text)
		} else {
			ins[l.at] = append(ins[l.at], l.text+"\n")
		}
	}
	var b strings.Builder
	for i := 0; i <= len(oldLines); i++ {
		for _, s := range ins[i] {
			b.WriteString(s)
		}
		if i < len(oldLines) && !dels[i+1] {
			b.WriteString(oldLines[i])
		}
	}
	if f.added && len(drop) == len(f.lines) {
		return nil, false
	}
	return []byte(b.String()), true
}

// minimalChecker runs the brute-force check, remembering the outcome of
// each tree it built (the same patch is reported by several runs).
type minimalChecker struct {
	mu   sync.Mutex
	seen map[[32]byte]runner.Run // the run by the case and the tree's changed files
}

// outcome is a run's outcome against the new version's failure: 0
// passes, 1 fails as the new version does, 2 does not build or fails
// another way.
func outcome(r, failing runner.Run) int {
	switch {
	case r.Exit == 0:
		return 0
	case runner.Extract(r).Same(runner.Extract(failing), runner.Message):
		return 1
	}
	return 2
}

// check runs the case's test on old with the patch, and with each of its
// changes left out, two at a time, and says what it found: "yes (p pass,
// u do not build)", "no: k of n removals still fail", or why it could
// not check.
func (mc *minimalChecker) check(work, old, nw, test, name string, s changesSummary) string {
	if s.Diff == "" || len(s.Hunks) == 0 {
		return "—"
	}
	files, err := parseDiff(s.Diff)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("an empty diff")
	}
	var own []map[int][]int
	if err == nil {
		own, err = attribute(files, s.Hunks)
	}
	if err != nil {
		fmt.Printf("minimality of %s not checked: %v\n", name, err)
		return "not checked"
	}
	// exec runs the test on tree; key identifies the tree for the cache.
	exec1 := func(tree string, key [32]byte) (runner.Run, error) {
		mc.mu.Lock()
		if r, ok := mc.seen[key]; ok {
			mc.mu.Unlock()
			return r, nil
		}
		mc.mu.Unlock()
		cmd := exec.Command(test, name, tree)
		cmd.Env = os.Environ()
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if code < 0 {
			return runner.Run{}, err
		}
		r := runner.Run{Exit: code, Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
		mc.mu.Lock()
		if mc.seen == nil {
			mc.seen = map[[32]byte]runner.Run{}
		}
		mc.seen[key] = r
		mc.mu.Unlock()
		return r, nil
	}
	failing, err := exec1(nw, sha256.Sum256([]byte(test+"\x00"+name+"\x00new\x00"+nw)))
	if err != nil {
		fmt.Printf("minimality of %s not checked: %v\n", name, err)
		return "not checked"
	}
	run := func(skip int) (int, error) {
		dir, err := os.MkdirTemp(work, "minimal-")
		if err != nil {
			return 0, err
		}
		defer os.RemoveAll(dir)
		tree := filepath.Join(dir, "tree")
		if out, err := exec.Command("cp", "-a", old, tree).CombinedOutput(); err != nil {
			return 0, fmt.Errorf("copying %s: %v: %s", old, err, out)
		}
		if err := applyWithout(old, tree, files, own, skip); err != nil {
			return 0, err
		}
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", test, name, old) // the same files of another case are another tree
		for _, f := range files {
			data, _ := os.ReadFile(filepath.Join(tree, f.path))
			fmt.Fprintf(h, "%s\x00%d\x00", f.path, len(data))
			h.Write(data)
		}
		var key [32]byte
		copy(key[:], h.Sum(nil))
		r, err := exec1(tree, key)
		if err != nil {
			return 0, err
		}
		return outcome(r, failing), nil
	}
	all, err := run(-1)
	if err != nil {
		fmt.Printf("minimality of %s not checked: %v\n", name, err)
		return "not checked"
	}
	if all != 1 {
		return fmt.Sprintf("no: the patch itself does not fail as the new version does (%s)", map[int]string{0: "it passes", 2: "it fails otherwise"}[all])
	}
	codes := make([]int, len(s.Hunks))
	errs := make([]error, len(s.Hunks))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for c := range s.Hunks {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			codes[c], errs[c] = run(c)
		}()
	}
	wg.Wait()
	pass, unres, fail := 0, 0, 0
	for c, code := range codes {
		switch {
		case errs[c] != nil:
			fmt.Printf("minimality of %s not checked: %v\n", name, errs[c])
			return "not checked"
		case code == 0:
			pass++
		case code == 1:
			fail++
			fmt.Printf("minimality of %s: without %s the patch still fails\n", name, s.Hunks[c])
		default:
			unres++
		}
	}
	if fail > 0 {
		return fmt.Sprintf("no: %d of %d removals fail", fail, len(s.Hunks))
	}
	return fmt.Sprintf("yes (%d pass, %d do not build)", pass, unres)
}
