package codediff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wynot/wynot/domain/filetree"
)

// TestGitTrees: trees and differences read through git ls-tree, diff and
// cat-file equal what ReadTree and Compare see in checked-out worktrees.
func TestGitTrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(stdin string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return out
	}
	put := func(p, data string, mode os.FileMode) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(full, mode)
	}
	tree := func(rev string) *Tree {
		es, err := ParseLsTree(git("", "ls-tree", "-r", "-z", "--full-tree", rev))
		if err != nil {
			t.Fatal(err)
		}
		blobs, err := ParseBatch(git(string(BatchRequest(es)), "cat-file", "--batch"))
		if err != nil {
			t.Fatal(err)
		}
		files, err := GitFiles(es, blobs)
		if err != nil {
			t.Fatal(err)
		}
		return &Tree{Files: files}
	}
	git("", "init", "-q")
	put("a.txt", "one\ntwo\n", 0o644)
	put("bin/run.sh", "#!/bin/sh\n", 0o755)
	put("sub/dir/gone.txt", "bye\n", 0o644)
	put("tab\tname.txt", "odd name\n", 0o644)
	os.Symlink("a.txt", filepath.Join(dir, "link"))
	git("", "add", "-A")
	git("", "commit", "-q", "-m", "one")
	first, err := filetree.ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	put("a.txt", "one\nTWO\n", 0o644)
	put("new.bin", "\x00\x01", 0o644)
	os.Remove(filepath.Join(dir, "sub/dir/gone.txt"))
	os.Chmod(filepath.Join(dir, "bin/run.sh"), 0o644)
	git("", "add", "-A")
	git("", "commit", "-q", "-m", "two")
	second, err := filetree.ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	for rev, want := range map[string]*Tree{"HEAD~1": first, "HEAD": second} {
		got := tree(rev)
		if strings.Join(got.Paths(), ",") != strings.Join(want.Paths(), ",") {
			t.Fatalf("%s: paths %q, want %q", rev, got.Paths(), want.Paths())
		}
		for p, f := range want.Files {
			if !filetree.Same(got.Files[p], f) {
				t.Errorf("%s: %s = %+v, want %+v", rev, p, got.Files[p], f)
			}
		}
	}
	es, err := ParseDiffRaw(git("", "diff", "--raw", "-z", "--no-renames", "--no-abbrev", "HEAD~1", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := ParseBatch(git(string(BatchRequest(es)), "cat-file", "--batch"))
	if err != nil {
		t.Fatal(err)
	}
	diff, err := GitFiles(es, blobs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"a.txt": true, "bin/run.sh": true, "new.bin": true, "sub/dir/gone.txt": true}
	if len(diff) != len(want) {
		t.Errorf("diff has %d paths, want %d", len(diff), len(want))
	}
	for p := range want {
		f, ok := diff[p]
		if !ok || !filetree.Same(f, second.Files[p]) {
			t.Errorf("diff %s = %+v (%v), want %+v", p, f, ok, second.Files[p])
		}
	}
}
