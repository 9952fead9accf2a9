package keep

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/wynot/wynot/domain/filetree"
)

// treeSum is the digest of a tree as the set of its files: the sum,
// modulo 2²⁵⁶, of each file's digest (fileSum, over its path, mode,
// link and content). A change of some files changes it by what their
// digests differ by, so that it is kept up to date at the cost of the
// files changed, never of the tree (AdHash, Bellare and Micciancio
// 1997). It only has to tell a tree from another that wynot may meet
// beside it (the lineage), not withstand a forger.
type treeSum [4]uint64 // little-endian limbs

// fileSum is the digest of the file f at path name in a tree.
func fileSum(name string, f *filetree.File) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%o %q %d:", name, f.Mode, f.Link, len(f.Data))
	h.Write(f.Data)
	hashed.Add(int64(len(f.Data)))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func limbs(k [32]byte) [4]uint64 {
	var l [4]uint64
	for i := range l {
		l[i] = binary.LittleEndian.Uint64(k[8*i:])
	}
	return l
}

// add adds the digest of a file to the tree's.
func (s *treeSum) add(k [32]byte) {
	var carry uint64
	for i, x := range limbs(k) {
		s[i], carry = bits.Add64(s[i], x, carry)
	}
}

// sub takes the digest of a file out of the tree's.
func (s *treeSum) sub(k [32]byte) {
	var borrow uint64
	for i, x := range limbs(k) {
		s[i], borrow = bits.Sub64(s[i], x, borrow)
	}
}

// String is the digest in hex, as lineages keep it.
func (s treeSum) String() string {
	var b [32]byte
	for i, x := range s {
		binary.BigEndian.PutUint64(b[24-8*i:], x)
	}
	return hex.EncodeToString(b[:])
}

// sumOf is the digest of the files of a tree.
func sumOf(files map[string]*filetree.File) treeSum {
	var s treeSum
	for name, f := range files {
		s.add(fileSum(name, f))
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

// hashed counts the bytes of content hashed for tree digests, so that
// a test can check that a change costs what it changes.
var hashed atomic.Int64
