package command_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/command/all"
	"github.com/wynot/wynot/domain/syntax/treesitter"
	"github.com/wynot/wynot/runner"
)

var update = flag.Bool("update", false, "rewrite the transcripts' expected sections with what the commands do now")

// TestTranscripts runs each testdata/script/*.txtar: the first line of
// its comment is the command line (split at spaces), the rest says what
// the transcript shows; its files are written into a fresh directory, where the
// command runs with the test command played by a formula target (the
// "target" file, see fakeTarget) instead of a process. The sections
// "stderr", "stdout" and "exit" are what the command must print and
// return, and a section "after:NAME" what file NAME must hold at the end.
// Run with -update to rewrite them. In a build without cgo (no
// tree-sitter grammars), a section "nocgo:NAME" is expected instead of
// NAME where there is one (CGO_ENABLED=0 go test -update rewrites those).
func TestTranscripts(t *testing.T) {
	paths, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, path := range paths {
		path, _ := filepath.Abs(path)
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			runTranscript(t, path)
		})
	}
}

func runTranscript(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ar := parseTxtar(data)
	line, _, _ := strings.Cut(strings.TrimSpace(ar.comment), "\n")
	args := strings.Fields(line)
	if len(args) < 2 || args[0] != "wynot" {
		t.Fatalf("the comment must be a command line starting with wynot, not %q", ar.comment)
	}
	dir := t.TempDir()
	var target string
	for _, f := range ar.files {
		switch {
		case f.name == "target":
			target = f.data
		case isExpected(f.name):
		default:
			p := filepath.Join(dir, filepath.FromSlash(f.name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(f.data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	fake, err := fakeTarget(target)
	if err != nil {
		t.Fatalf("target: %v", err)
	}
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, ".cache"))
	var stdout, stderr bytes.Buffer
	c := all.Lookup(args[1])
	if c == nil {
		t.Fatalf("no command %q", args[1])
	}
	code := c.Main(context.Background(), args[2:], command.Env{Stdout: &stdout, Stderr: &stderr,
		Help: func(section string) string { return "help for " + section + "\n" }, Fake: fake})
	got := map[string]string{
		"stderr": normalize(stderr.String(), dir),
		"stdout": normalize(stdout.String(), dir),
		"exit":   fmt.Sprintln(code),
	}
	for _, f := range ar.files {
		if name, ok := strings.CutPrefix(f.name, "after:"); ok {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if os.IsNotExist(err) {
				got[f.name] = "(does not exist)\n"
			} else if err != nil {
				t.Fatal(err)
			} else {
				got[f.name] = normalize(string(b), dir)
			}
		}
	}
	// expected is the section that holds what name must be in this build.
	expected := func(name string) string {
		if _, ok := ar.get("nocgo:" + name); ok && len(treesitter.Names()) == 0 {
			return "nocgo:" + name
		}
		return name
	}
	if *update {
		for name, content := range got {
			ar.set(expected(name), content)
		}
		if err := os.WriteFile(path, ar.format(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name, content := range got {
		name = expected(name)
		want, ok := ar.get(name)
		if !ok {
			t.Errorf("no section %q; run go test -update to add it:\n%s", name, content)
			continue
		}
		if want != content {
			t.Errorf("%s differs:\n--- want\n%s--- got\n%s", name, want, content)
		}
	}
}

func isExpected(name string) bool {
	name = strings.TrimPrefix(name, "nocgo:")
	return name == "stderr" || name == "stdout" || name == "exit" || strings.HasPrefix(name, "after:")
}

// normalize makes output comparable across runs: durations (in the
// closing lines, the JSON summary and the HTML report) and the temporary
// directory are replaced.
func normalize(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "$DIR")
	s = regexp.MustCompile(`\b\d+\.\ds\b`).ReplaceAllString(s, "N.Ns")
	s = regexp.MustCompile(`("seconds": )[0-9.e+-]+`).ReplaceAllString(s, "${1}0")
	s = regexp.MustCompile(`<td>\d+\.\d s</td>`).ReplaceAllString(s, "<td>N.N s</td>")
	s = regexp.MustCompile(`<td class=n>\d+\.\d\d</td></tr>`).ReplaceAllString(s, "<td class=n>N.NN</td></tr>")
	return s
}

// fakeTarget makes the stand-in for the test process from a formula, one
// rule per line: "fail if all: A B ..." (the run fails like a Go panic
// when the candidate holds every one of the words), "fail if any: A B
// ...", "unresolved if all: ...", "unresolved if any: ...". The first
// rule that matches decides; a run no rule matches passes. "flip every:
// N" makes every N-th run answer the other way (pass for fail and fail
// for pass): a flaky test, deterministic under -j1. The candidate
// is its argument list, or the files of its work directory.
func fakeTarget(formula string) (func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error), error) {
	type rule struct {
		fail, all bool
		words     []string
	}
	var rules []rule
	flip, runs := 0, 0
	var mu sync.Mutex
	for _, l := range strings.Split(strings.TrimSpace(formula), "\n") {
		head, words, ok := strings.Cut(l, ":")
		if !ok {
			return nil, fmt.Errorf("line %q: want RULE: WORDS", l)
		}
		var r rule
		switch strings.TrimSpace(head) {
		case "flip every":
			n, err := strconv.Atoi(strings.TrimSpace(words))
			if err != nil || n < 1 {
				return nil, fmt.Errorf("line %q: want flip every: N", l)
			}
			flip = n
			continue
		case "fail if all":
			r = rule{fail: true, all: true}
		case "fail if any":
			r = rule{fail: true}
		case "unresolved if all":
			r = rule{all: true}
		case "unresolved if any":
		default:
			return nil, fmt.Errorf("unknown rule %q", head)
		}
		r.words = strings.Fields(words)
		rules = append(rules, r)
	}
	return func(ctx context.Context, dir string, c runner.Candidate) (runner.Run, error) {
		text := strings.Join(c.Args, " ")
		if dir != "" {
			var b strings.Builder
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
					data, err := os.ReadFile(p)
					b.Write(data)
					b.WriteByte('\n')
					return err
				}
				return nil
			})
			if err != nil {
				return runner.Run{Exit: -1}, err
			}
			text += b.String()
		}
		mu.Lock()
		runs++
		flipped := flip > 0 && runs%flip == 0
		mu.Unlock()
		failed := runner.Run{Exit: 2, Stderr: []byte("panic: the target failed\n\ngoroutine 1 [running]:\nmain.main()\n\t/fake/main.go:1 +0x1\n")}
		for _, r := range rules {
			match := slices.ContainsFunc(r.words, func(w string) bool { return strings.Contains(text, w) })
			if r.all {
				match = !slices.ContainsFunc(r.words, func(w string) bool { return !strings.Contains(text, w) })
			}
			switch {
			case match && r.fail && flipped:
				return runner.Run{}, nil
			case match && r.fail:
				return failed, nil
			case match:
				return runner.Run{Exit: 125, Stderr: []byte("cannot build\n")}, nil
			}
		}
		if flipped {
			return failed, nil
		}
		return runner.Run{}, nil
	}, nil
}

// archive is a txtar archive: a comment, then files, each after a line
// "-- NAME --".
type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct{ name, data string }

var marker = regexp.MustCompile(`(?m)^-- (.+) --$\n?`)

func parseTxtar(data []byte) *archive {
	s := string(data)
	ms := marker.FindAllStringSubmatchIndex(s, -1)
	ar := &archive{comment: s}
	if len(ms) == 0 {
		return ar
	}
	ar.comment = s[:ms[0][0]]
	for i, m := range ms {
		end := len(s)
		if i+1 < len(ms) {
			end = ms[i+1][0]
		}
		ar.files = append(ar.files, archiveFile{name: s[m[2]:m[3]], data: s[m[1]:end]})
	}
	return ar
}

func (ar *archive) get(name string) (string, bool) {
	for _, f := range ar.files {
		if f.name == name {
			return f.data, true
		}
	}
	return "", false
}

func (ar *archive) set(name, data string) {
	for i := range ar.files {
		if ar.files[i].name == name {
			ar.files[i].data = data
			return
		}
	}
	ar.files = append(ar.files, archiveFile{name, data})
}

func (ar *archive) format() []byte {
	var b bytes.Buffer
	b.WriteString(ar.comment)
	if len(ar.files) > 0 && ar.comment != "" && !strings.HasSuffix(ar.comment, "\n") {
		b.WriteByte('\n') // a file's header starts a line
	}
	for _, f := range ar.files {
		fmt.Fprintf(&b, "-- %s --\n%s", f.name, f.data)
		if f.data != "" && !strings.HasSuffix(f.data, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
