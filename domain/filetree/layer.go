package filetree

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"math/bits"
)

// Digest is an order-free digest of files by path: the sum, modulo
// 2²⁵⁶, of each one's FileDigest (AdHash, Bellare and Micciancio 1997).
// A change of some files changes it by what their digests differ by, so
// that it is kept up to date at the cost of the files changed, never of
// all of them. It tells trees apart as a cache key or a record does; it
// is not meant to withstand someone who forges trees to collide.
type Digest [4]uint64 // little-endian limbs

// FileDigest is the SHA-256 of the file f at path name (nil: a path
// that holds nothing), over the path, mode, link and content.
func FileDigest(name string, f *File) [32]byte {
	h := sha256.New()
	if f == nil {
		fmt.Fprintf(h, "%s\x00absent", name)
	} else {
		fmt.Fprintf(h, "%s\x00%o %q %d:", name, f.Mode, f.Link, len(f.Data))
		h.Write(f.Data)
	}
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

// Add adds a file's digest.
func (d *Digest) Add(k [32]byte) {
	var carry uint64
	for i, x := range limbs(k) {
		d[i], carry = bits.Add64(d[i], x, carry)
	}
}

// Sub takes a file's digest out.
func (d *Digest) Sub(k [32]byte) {
	var borrow uint64
	for i, x := range limbs(k) {
		d[i], borrow = bits.Sub64(d[i], x, borrow)
	}
}

// String is the digest in hex.
func (d Digest) String() string {
	var b [32]byte
	for i, x := range d {
		binary.BigEndian.PutUint64(b[24-8*i:], x)
	}
	return hex.EncodeToString(b[:])
}

// Layer is a content over a base tree (the files that differ from the
// base's; nil: absent) shared by many candidates, immutable once made,
// with the digest of those files. A candidate is a layer with a few
// files in place of its own (a delta): bringing a work directory from
// one candidate to another of the same layer (Workspaces.SyncOver) and
// telling candidates apart (Identity) cost the deltas, not the layer.
// A reduction's layer is its smallest failing tree so far; a new one is
// made at each improvement (With).
type Layer struct {
	base   *Tree
	files  map[string]*File
	digest Digest
	absent int // paths of the base the layer removes
}

// NewLayer is the layer of base with files in place of its own; those
// that hold what the base holds are left out.
func NewLayer(base *Tree, files map[string]*File) *Layer {
	l := &Layer{base: base, files: map[string]*File{}}
	l.apply(files)
	return l
}

// With is a new layer: l with delta in place of its files. It costs a
// copy of l's files, and the digests of delta's.
func (l *Layer) With(delta map[string]*File) *Layer {
	m := &Layer{base: l.base, files: maps.Clone(l.files), digest: l.digest, absent: l.absent}
	m.apply(delta)
	return m
}

// apply puts the files of delta in place of the layer's.
func (l *Layer) apply(delta map[string]*File) {
	for p, f := range delta {
		if old, ok := l.files[p]; ok {
			l.digest.Sub(FileDigest(p, old))
			if old == nil {
				l.absent--
			}
			delete(l.files, p)
		}
		if Same(f, l.base.Files[p]) {
			continue
		}
		l.files[p] = f
		l.digest.Add(FileDigest(p, f))
		if f == nil {
			l.absent++
		}
	}
}

// File is what path p holds in the layer (nil: nothing).
func (l *Layer) File(p string) *File { return l.file(nil, p) }

// file is what path p holds in the layer with delta in place.
func (l *Layer) file(delta map[string]*File, p string) *File {
	if f, ok := delta[p]; ok {
		return f
	}
	if f, ok := l.files[p]; ok {
		return f
	}
	return l.base.Files[p]
}

// Identity is the identity of the tree the layer makes with delta in
// place, as a candidate's cache key: equal for equal trees, whatever
// layer they are made over (the Digest of the files that differ from
// the base's), in what delta holds and not what the layer does.
func (l *Layer) Identity(delta map[string]*File) []byte {
	d := l.digest
	for p, f := range delta {
		if old, ok := l.files[p]; ok {
			d.Sub(FileDigest(p, old))
		}
		if !Same(f, l.base.Files[p]) {
			d.Add(FileDigest(p, f))
		}
	}
	return []byte("tree " + d.String())
}

// Present is how many files of the base are there in the layer with
// delta in place.
func (l *Layer) Present(delta map[string]*File) int {
	n := len(l.base.Files) - l.absent
	for p, f := range delta {
		if _, inBase := l.base.Files[p]; !inBase {
			continue
		}
		was := l.file(nil, p) != nil
		if was && f == nil {
			n--
		} else if !was && f != nil {
			n++
		}
	}
	return n
}
