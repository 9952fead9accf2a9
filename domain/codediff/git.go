package codediff

import (
	"bytes"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// GitEntry is a file as git lists it: in a tree (git ls-tree), or the new
// side of a difference between two trees (git diff --raw), where an empty
// Blob means the path is deleted.
type GitEntry struct {
	Path string
	Mode string // octal, as git writes it: 100644, 100755, 120000, 160000
	Blob string // object id; "" for a deleted path
}

// ParseLsTree reads the output of git ls-tree -r -z --full-tree.
func ParseLsTree(out []byte) ([]GitEntry, error) {
	var es []GitEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-tree: cannot read %q", rec)
		}
		if f[1] != "blob" {
			continue // submodules (commits) are not files of the tree
		}
		es = append(es, GitEntry{Path: string(path), Mode: f[0], Blob: f[2]})
	}
	return es, nil
}

// ParseDiffRaw reads the output of git diff --raw -z --no-renames
// --no-abbrev: the paths that differ, with their new side.
func ParseDiffRaw(out []byte) ([]GitEntry, error) {
	var es []GitEntry
	recs := bytes.Split(out, []byte{0})
	for i := 0; i < len(recs); i++ {
		meta := string(recs[i])
		if meta == "" {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(meta, ":"))
		if !strings.HasPrefix(meta, ":") || len(f) != 5 || i+1 >= len(recs) {
			return nil, fmt.Errorf("git diff --raw: cannot read %q", meta)
		}
		i++
		path := string(recs[i])
		mode, blob := f[1], f[3]
		if f[4] == "D" || strings.Trim(blob, "0") == "" {
			mode, blob = "", ""
		}
		if mode == "160000" {
			continue
		}
		es = append(es, GitEntry{Path: path, Mode: mode, Blob: blob})
	}
	return es, nil
}

// BatchRequest is the input for git cat-file --batch that fetches the
// blobs of entries, each once.
func BatchRequest(es []GitEntry) []byte {
	var b bytes.Buffer
	seen := map[string]bool{}
	for _, e := range es {
		if e.Blob != "" && !seen[e.Blob] {
			seen[e.Blob] = true
			b.WriteString(e.Blob + "\n")
		}
	}
	return b.Bytes()
}

// ParseBatch reads the output of git cat-file --batch: object id to
// content.
func ParseBatch(out []byte) (map[string][]byte, error) {
	blobs := map[string][]byte{}
	for len(out) > 0 {
		header, rest, ok := bytes.Cut(out, []byte{'\n'})
		f := strings.Fields(string(header))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: cannot read %q", header)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 0 || n+1 > len(rest) {
			return nil, fmt.Errorf("git cat-file: bad size in %q", header)
		}
		blobs[f[0]] = rest[:n:n]
		out = rest[n+1:]
	}
	return blobs, nil
}

// GitFiles makes files of entries with the blobs' contents: by path, the
// file, or nil for a deleted path.
func GitFiles(es []GitEntry, blobs map[string][]byte) (map[string]*File, error) {
	files := make(map[string]*File, len(es))
	for _, e := range es {
		if e.Blob == "" {
			files[e.Path] = nil
			continue
		}
		data, ok := blobs[e.Blob]
		if !ok {
			return nil, fmt.Errorf("git: blob %s of %s missing", e.Blob, e.Path)
		}
		switch e.Mode {
		case "120000":
			files[e.Path] = &File{Mode: fs.ModeSymlink | 0o777, Link: string(data)}
		case "100755":
			files[e.Path] = &File{Data: data, Mode: 0o755}
		default:
			files[e.Path] = &File{Data: data, Mode: 0o644}
		}
	}
	return files, nil
}

// ParseDiffTreeNames reads the output of git diff-tree --stdin -r -z
// --name-only --no-renames given one line "COMMIT PARENT" for each of
// commits, in order: the paths each commit changes. A commit that
// changes nothing has no entry (git writes nothing for it).
func ParseDiffTreeNames(out []byte, commits []string) (map[string][]string, error) {
	names := map[string][]string{}
	next, cur := 0, ""
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		s := string(rec)
		for k := next; k < len(commits); k++ {
			if commits[k] == s {
				cur, next = s, k+1
				names[cur] = []string{}
				s = ""
				break
			}
		}
		if s == "" {
			continue
		}
		if cur == "" {
			return nil, fmt.Errorf("git diff-tree: a path %q before any commit", s)
		}
		names[cur] = append(names[cur], s)
	}
	return names, nil
}
