package keep

import (
	"sync/atomic"

	"github.com/wynot/wynot/domain/filetree"
)

// A tree's digest (Sum) is a filetree.Digest: the sum of its files'
// digests, so that a change of some files changes it by what their
// digests differ by. It is kept up to date at the cost of the files
// changed, never of the tree; it only has to tell a tree from another
// that wynot may meet beside it (the lineage).

// fileSum is the digest of the file f at path name in a tree.
func fileSum(name string, f *filetree.File) [32]byte {
	hashed.Add(int64(len(f.Data)))
	return filetree.FileDigest(name, f)
}

// hashed counts the bytes of content hashed for tree digests, so that
// a test can check that a change costs what it changes.
var hashed atomic.Int64

// sumOf is the digest of the files of a tree.
func sumOf(files map[string]*filetree.File) filetree.Digest {
	var s filetree.Digest
	for name, f := range files {
		s.Add(fileSum(name, f))
	}
	return s
}

// Sum is the digest of a tree's files: equal for equal trees, whatever
// order they were read in, and kept up to date file by file as a
// reduction changes the tree.
func Sum(files map[string]*filetree.File) string { return sumOf(files).String() }

// legacySum is the digest wynot gave trees before Sum, hashed over the
// whole tree at once: an interrupted reduction recorded by an earlier
// wynot is still recognized by it.
func legacySum(files map[string]*filetree.File) string {
	return Digest(filetree.Identity(files))
}
