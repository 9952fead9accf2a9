package filetree

import (
	"path"
	"slices"
	"strings"
)

// Levels is how many levels of files and directories a tree holding
// the files at paths (slash-separated; an empty path is no file) has: 1
// when all are at the top.
func Levels(paths []string) int {
	n := 0
	for _, p := range paths {
		if p != "" {
			n = max(n, strings.Count(p, "/")+1)
		}
	}
	return n
}

// Entries are the files and directories at level d (0: the top) of a
// tree holding the files at paths (an empty path is no file), sorted,
// each with the indices of the paths it holds: the changes of one level
// of Hierarchical Delta Debugging (ICSE 2006) over a directory tree.
func Entries(paths []string, d int) (names []string, members map[string][]int) {
	members = map[string][]int{}
	for i, p := range paths {
		parts := strings.Split(p, "/")
		if p == "" || len(parts) <= d {
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

// Escapes reports whether a symbolic link at rel with target leads
// outside the tree.
func Escapes(rel, target string) bool {
	if path.IsAbs(target) {
		return true
	}
	t := path.Join(path.Dir(rel), target)
	return t == ".." || strings.HasPrefix(t, "../")
}
