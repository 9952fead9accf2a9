package codediff

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// FuzzGitOutputs: the readers of git's outputs take any bytes without
// panicking, and read back what git writes: a path's line of git diff
// --raw -z and of git ls-tree -r -z, an object of git cat-file --batch,
// and the names of git diff-tree --name-only -z, whatever the path and
// the content.
func FuzzGitOutputs(f *testing.F) {
	f.Add([]byte(":100644 100644 1111 2222 M\x00a.go\x00"), "a.go", []byte("package a\n"))
	f.Add([]byte("100644 blob 2222\tdir/b c.txt\x00"), "dir/b c.txt", []byte{})
	f.Add([]byte("2222 blob 3\nabc\n"), "x\ty", []byte("\x00\n"))
	f.Fuzz(func(t *testing.T, out []byte, path string, data []byte) {
		ParseLsTree(out)
		ParseDiffRaw(out)
		ParseBatch(out)
		ParseDiffTreeNames(out, []string{"c1", "c2"})
		if path == "" || strings.ContainsRune(path, 0) {
			return // no path git writes
		}
		blob := fmt.Sprintf("%040x", len(data)+1)
		want := GitEntry{Path: path, Mode: "100755", Blob: blob}
		es, err := ParseDiffRaw([]byte(":100644 100755 " + strings.Repeat("0", 40) + " " + blob + " M\x00" + path + "\x00"))
		if err != nil || len(es) != 1 || es[0] != want {
			t.Errorf("diff --raw of %q: %v, %v", path, es, err)
		}
		es, err = ParseLsTree([]byte("100755 blob " + blob + "\t" + path + "\x00"))
		if err != nil || len(es) != 1 || es[0] != want {
			t.Errorf("ls-tree of %q: %v, %v", path, es, err)
		}
		if req := string(BatchRequest([]GitEntry{want, want})); req != blob+"\n" {
			t.Errorf("the batch request of one blob twice is %q", req)
		}
		var batch bytes.Buffer
		fmt.Fprintf(&batch, "%s blob %d\n", blob, len(data))
		batch.Write(data)
		batch.WriteByte('\n')
		blobs, err := ParseBatch(batch.Bytes())
		if err != nil || len(blobs) != 1 || !bytes.Equal(blobs[blob], data) {
			t.Errorf("cat-file --batch of %d bytes: %v", len(data), err)
		}
		names, err := ParseDiffTreeNames([]byte("c1\x00"+path+"\x00"), []string{"c1"})
		if err != nil || len(names["c1"]) != 1 || names["c1"][0] != path && path != "c1" {
			t.Errorf("diff-tree names of %q: %v, %v", path, names, err)
		}
	})
}
