package dd

import (
	"slices"
	"strings"
)

// Config is a configuration (FSE 1999 Def. 1, TSE 2002 Def. 5): a set of
// change indices in 0..n-1, sorted ascending, without duplicates. Index i
// stands for change δ(i+1) of the papers (see the package documentation). A Config handed to a Tester or an
// Observer is only valid during that call; copy it to keep it.
type Config []int

// All returns the configuration holding every one of n changes: c✗.
func All(n int) Config {
	c := make(Config, n)
	for i := range c {
		c[i] = i
	}
	return c
}

// AllBut returns the configuration of n changes without those in skip:
// the complement of skip in All(n) (with a plan of transformations, the
// configuration that makes exactly the skipped ones).
func AllBut(n int, skip ...int) Config {
	c := make(Config, 0, n)
	for i := range n {
		if !slices.Contains(skip, i) {
			c = append(c, i)
		}
	}
	return c
}

// Contains reports whether change i is in c.
func (c Config) Contains(i int) bool {
	_, ok := slices.BinarySearch(c, i)
	return ok
}

// Diagram draws c as the papers' tables do, one column per change of n:
// the change's number (1-based) if included, a dot if not; e.g. "1 2 . . 5 6 7 8".
func Diagram(c Config, n int) string {
	var b strings.Builder
	j := 0
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		if j < len(c) && c[j] == i {
			b.WriteString(itoa(i + 1))
			j++
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	var buf [20]byte
	p := len(buf)
	for i > 0 {
		p--
		buf[p] = byte('0' + i%10)
		i /= 10
	}
	return string(buf[p:])
}

// union appends the union of the disjoint sorted sets a and b to dst.
func union(dst, a, b []int) []int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < b[j] {
			dst = append(dst, a[i])
			i++
		} else {
			dst = append(dst, b[j])
			j++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// minus appends the elements of sorted a that are not in sorted b to dst.
func minus(dst, a, b []int) []int {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		dst = append(dst, x)
	}
	return dst
}

// intersection returns the elements common to sorted a and b.
func intersection(a, b []int) []int {
	var out []int
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			out = append(out, x)
		}
	}
	return out
}

// subset reports whether sorted a is a subset of sorted b.
func subset(a, b []int) bool {
	if len(a) > len(b) {
		return false
	}
	j := 0
	for _, x := range a {
		// Gallop: b is often much larger than a.
		k, found := slices.BinarySearch(b[j:], x)
		if !found {
			return false
		}
		j += k + 1
	}
	return true
}

// key identifies a configuration by an additive (multiset) hash in two
// independent 64-bit lanes plus its size. Because the hash of a set is the
// sum of its elements' hashes, the key of c'✓ ∪ Δi or c'✗ − Δi costs
// O(|Δi|) given the keys of c'✓ and c'✗: the cache is consulted before a
// candidate is ever materialized.
type key struct {
	a, b uint64
	n    int
}

func (k key) plus(o key) key  { return key{k.a + o.a, k.b + o.b, k.n + o.n} }
func (k key) minus(o key) key { return key{k.a - o.a, k.b - o.b, k.n - o.n} }

func keyOf(c []int) key {
	var k key
	for _, i := range c {
		k.a += mix(uint64(i))
		k.b += mix(uint64(i) ^ 0xd6e8feb86659fd93)
	}
	k.n = len(c)
	return k
}

// mix is the splitmix64 finalizer: a bijection of uint64 that spreads
// neighboring indices over the whole range.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
