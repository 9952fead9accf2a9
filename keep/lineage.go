package keep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/wynot/wynot/domain/filetree"
)

// lineage is what wynot remembers of a file it reduces in place: the
// digest of the original it kept (in FILE.orig or FILE.orig.N) and of
// what it wrote to FILE last. A later run that finds FILE.orig can then
// tell an interrupted reduction of the same file, which it continues
// from FILE, from a FILE.orig that belongs to something else, which it
// leaves alone. Lineages live in the user's cache directory, one small
// file per reduced file; without one, an existing FILE.orig is never
// taken for the original.
type lineage struct {
	Orig string `json:"orig"`
	Last string `json:"last"`
	// Next is, for a tree, the change being written when it is set:
	// a run killed while writing it leaves the tree as Last or, once
	// DIR.wynot-pending is finished, as Next.
	Next string `json:"next,omitempty"`
}

// holds says the lineage is that of a tree whose original orig is kept,
// and that now is what the run wrote to it last (or the change it was
// writing); a lineage an earlier wynot recorded, with the digests of
// whole trees, is recognized too.
func (l lineage) holds(orig, now map[string]*filetree.File) bool {
	if cur := Sum(now); l.Orig == Sum(orig) && (l.Last == cur || l.Next != "" && l.Next == cur) {
		return true
	}
	return l.Orig == legacySum(orig) && l.Last == legacySum(now)
}

// Digest is the SHA-256 of data, in hex: how originals and results are
// recognised.
func Digest(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// LineageDir is the directory where the lineages of files reduced in
// place are kept (one file each), or "" when there is no cache
// directory.
func LineageDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "wynot", "inplace")
}

// lineagePath is where the lineage of file is kept, or "" when there is
// no cache directory.
func lineagePath(file string) string {
	dir := LineageDir()
	abs, err := filepath.Abs(file)
	if dir == "" || err != nil {
		return ""
	}
	return filepath.Join(dir, Digest([]byte(abs)))
}

func readLineage(file string) (lineage, bool) {
	var l lineage
	p := lineagePath(file)
	if p == "" {
		return l, false
	}
	data, err := os.ReadFile(p)
	if err != nil || json.Unmarshal(data, &l) != nil {
		return l, false
	}
	return l, l.Orig != "" && l.Last != ""
}

// writeLineage records a lineage; failing to is not an error (a later
// run then keeps a new original under a new name).
func writeLineage(file string, l lineage) {
	p := lineagePath(file)
	if p == "" {
		return
	}
	if os.MkdirAll(filepath.Dir(p), 0o700) != nil {
		return
	}
	data, _ := json.Marshal(l)
	tmp := p + ".tmp"
	if os.WriteFile(tmp, data, 0o600) == nil {
		os.Rename(tmp, p)
	}
}

func removeLineage(file string) {
	if p := lineagePath(file); p != "" {
		os.Remove(p)
	}
}
