package command

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// ShellQuote renders arguments as a shell would need them.
func ShellQuote(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ',' || r == ':' || r == '+' ||
				'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
		}) < 0 {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// WriteAtomic replaces path with data: written to a temporary file in the
// same directory, synced, then renamed over path, so that path always
// holds either its old or its new content.
func WriteAtomic(path string, data []byte, mode fs.FileMode) error {
	return replace(path, data, mode, true)
}

// ReplaceFile is WriteAtomic without syncing to the disk: path holds the
// old or the new content whenever the process stops, even by SIGKILL,
// but a crash of the whole system may find the old.
func ReplaceFile(path string, data []byte, mode fs.FileMode) error {
	return replace(path, data, mode, false)
}

// FreePath returns p when nothing exists there; otherwise the first of
// p.1, p.2, ... that is free (with ext moved behind the number:
// NAME.1.pass for p = NAME.pass and ext = ".pass"). wynot never writes
// over a file it did not make in the same run.
func FreePath(p, ext string) string {
	if _, err := os.Lstat(p); os.IsNotExist(err) {
		return p
	}
	stem := strings.TrimSuffix(p, ext)
	for k := 1; ; k++ {
		q := fmt.Sprintf("%s.%d%s", stem, k, ext)
		if _, err := os.Lstat(q); os.IsNotExist(err) {
			return q
		}
	}
}

func replace(path string, data []byte, mode fs.FileMode, sync bool) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".wynot-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode.Perm())
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// CheckWritable fails unless a file can be created in dir.
func CheckWritable(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".wynot-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// ShellSplit splits a command line into words by the rules of the POSIX
// shell for quoting: 'single quotes' keep everything, "double quotes"
// keep everything but \\, \" and \$ escapes, a backslash outside quotes
// keeps the next character. Nothing is expanded.
func ShellSplit(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in := false // a word is under way (even an empty one: '')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		case c == '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("%q ends with a backslash", s)
			}
			i++
			w.WriteByte(s[i])
			in = true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("%q has an unterminated single quote", s)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("%q has an unterminated double quote", s)
			}
			in = true
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// List names up to n of the names, and how many more there are.
func List(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// RestoredTrees are work trees put back to their candidate before every
// test (filetree.Workspaces): what tests were found to change in them.
type RestoredTrees interface {
	// Restored is how many times a test changed each path, so far.
	Restored() map[string]int
	// OnRestore makes f be called whenever a test is found to have
	// changed paths of its tree.
	OnRestore(f func(changed []string))
}

// WatchTree makes s say, the first time a test is found to have changed
// the tree it runs in (ws's work directories), which paths it changed
// and that they are put back before every test; earlier tests (of the
// originals) count too.
func WatchTree(s *Session, ws RestoredTrees) {
	var once sync.Once
	say := func(paths []string) {
		once.Do(func() {
			s.Say("the test changes the tree it runs in (%s): before every test, wynot puts the tree back to exactly its candidate (what a test writes outside its tree is not undone)", List(paths, 4))
		})
	}
	if seen := ws.Restored(); len(seen) > 0 {
		say(slices.Sorted(maps.Keys(seen)))
	}
	ws.OnRestore(say)
}
