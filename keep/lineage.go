package keep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
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
}

// Digest is the SHA-256 of data, in hex: how originals and results are
// recognised.
func Digest(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// lineagePath is where the lineage of file is kept, or "" when there is
// no cache directory.
func lineagePath(file string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "wynot", "inplace", Digest([]byte(abs)))
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
