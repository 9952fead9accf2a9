package filetree

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"sync/atomic"
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
// made at each improvement (With), at the cost of the improvement: its
// files are a large map shared with the layers before it and a small
// one of its own, merged once the small one has grown, and it
// remembers the paths the last improvements changed, so that a work
// directory synced to an earlier layer of the same line is brought to
// it by those paths.
type Layer struct {
	base *Tree
	// frozen, shared by layers and never changed, and own, this
	// layer's (an entry in own stands for frozen's; asBase: none), are
	// the files that differ from the base's.
	frozen, own map[string]*File
	digest      Digest
	absent      int // paths of the base the layer removes
	// gen numbers the layer; steps are the paths each of the last
	// improvements changed, from the layer numbered from, oldest first.
	gen   uint64
	steps []step
}

// step is one improvement from the layer numbered from: the paths it
// changed.
type step struct {
	from  uint64
	paths []string
}

// maxSteps is how many improvements a layer remembers; compactAt is how
// many files of its own a layer has at least before they are merged
// into a shared map (and at least an eighth of that map's). Variables
// for tests.
var maxSteps, compactAt = 64, 1024

// asBase, in a layer's own files, says that a path holds what the base
// holds, whatever frozen says.
var asBase = &File{}

// layers numbers layers.
var layers atomic.Uint64

// NewLayer is the layer of base with files in place of its own; those
// that hold what the base holds are left out.
func NewLayer(base *Tree, files map[string]*File) *Layer {
	l := &Layer{base: base, frozen: map[string]*File{}, own: map[string]*File{}, gen: layers.Add(1)}
	l.apply(files)
	return l
}

// With is a new layer: l with delta in place of its files. It costs
// delta, and a copy of the files l does not share with earlier layers,
// which are few: once they are many they are merged into a new shared
// map, a cost that then comes once for as many files.
func (l *Layer) With(delta map[string]*File) *Layer {
	m := &Layer{base: l.base, frozen: l.frozen, own: maps.Clone(l.own), digest: l.digest, absent: l.absent, gen: layers.Add(1)}
	m.apply(delta)
	paths := make([]string, 0, len(delta))
	for p := range delta {
		paths = append(paths, p)
	}
	m.steps = append(slices.Clone(l.steps[max(0, len(l.steps)-maxSteps+1):]), step{from: l.gen, paths: paths})
	if len(m.own) > max(compactAt, len(m.frozen)/8) {
		frozen := make(map[string]*File, len(m.frozen)+len(m.own))
		for p, f := range m.files() {
			frozen[p] = f
		}
		m.frozen, m.own = frozen, map[string]*File{}
	}
	return m
}

// lookup is what the layer holds at p, if it differs from the base.
func (l *Layer) lookup(p string) (*File, bool) {
	if f, ok := l.own[p]; ok {
		return f, f != asBase
	}
	f, ok := l.frozen[p]
	return f, ok
}

// files ranges over the files that differ from the base's.
func (l *Layer) files() func(yield func(string, *File) bool) {
	return func(yield func(string, *File) bool) {
		for p, f := range l.frozen {
			if _, mine := l.own[p]; !mine && !yield(p, f) {
				return
			}
		}
		for p, f := range l.own {
			if f != asBase && !yield(p, f) {
				return
			}
		}
	}
}

// apply puts the files of delta in place of the layer's.
func (l *Layer) apply(delta map[string]*File) {
	for p, f := range delta {
		if old, ok := l.lookup(p); ok {
			l.digest.Sub(FileDigest(p, old))
			if old == nil {
				l.absent--
			}
		}
		if Same(f, l.base.Files[p]) {
			if _, ok := l.frozen[p]; ok {
				l.own[p] = asBase
			} else {
				delete(l.own, p)
			}
			continue
		}
		l.own[p] = f
		l.digest.Add(FileDigest(p, f))
		if f == nil {
			l.absent++
		}
	}
}

// since is the paths that may differ between l and the earlier layer
// numbered gen of its line, from the improvements l remembers; false
// when it does not remember back that far.
func (l *Layer) since(gen uint64) ([]string, bool) {
	var out []string
	for i := len(l.steps) - 1; i >= 0; i-- {
		out = append(out, l.steps[i].paths...)
		if l.steps[i].from == gen {
			return out, true
		}
	}
	return nil, false
}

// between is the paths that may differ between two layers of one line
// (either may be the earlier), or false when neither remembers the
// other.
func between(a, b *Layer) ([]string, bool) {
	if a.gen < b.gen {
		a, b = b, a
	}
	return a.since(b.gen)
}

// File is what path p holds in the layer (nil: nothing).
func (l *Layer) File(p string) *File { return l.file(nil, p) }

// file is what path p holds in the layer with delta in place.
func (l *Layer) file(delta map[string]*File, p string) *File {
	if f, ok := delta[p]; ok {
		return f
	}
	if f, ok := l.lookup(p); ok {
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
		if old, ok := l.lookup(p); ok {
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
