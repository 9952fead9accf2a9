package command

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/wynot/wynot/keep"
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

// List names up to n of the names (file names, written as keep.Quote
// writes them), and how many more there are.
func List(names []string, n int) string {
	quoted := make([]string, min(len(names), n))
	for i := range quoted {
		quoted[i] = keep.Quote(names[i])
	}
	if len(names) <= n {
		return strings.Join(quoted, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(quoted, ", "), len(names)-n)
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

// CopiedTrees are work directories each made as a copy of a tree
// (filetree.Workspaces), which takes seconds for a large tree.
type CopiedTrees interface {
	// OnCopy makes f be called, from any goroutine, as the copy into
	// the work directory dir goes: done of total files written.
	OnCopy(f func(dir string, done, total int))
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
