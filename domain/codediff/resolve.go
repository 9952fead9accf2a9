package codediff

import (
	"bytes"
	"cmp"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wynot/wynot/domain/filetree"
)

// Resolve implements the failure-resolution loop of FSE 1999 §8: "After a
// failing construction, WYNOT scans the error messages for identifiers,
// adds all changes that reference these identifiers and tries again." It
// reads a build's output for the configuration c (sorted change
// indices): positions (file:line, as Go and C compilers write them) and
// the identifiers of the messages. It returns the changes not in c that
// touch a reported line (within two lines, in the file as configured) or
// whose old or new lines mention a reported identifier, sorted; none when
// the output names nothing that a change could provide.
func (s *Set) Resolve(output []byte, c []int) []int {
	in := make(map[int]bool, len(c))
	for _, i := range c {
		in[i] = true
	}
	add := map[int]bool{}
	idents := map[string]bool{}
	tests := false // a message names a test file
	for _, m := range positionRe.FindAllSubmatch(output, -1) {
		p := s.findPath(string(m[1]))
		line, _ := strconv.Atoi(string(m[2]))
		if p != "" && line > 0 {
			for _, i := range s.near(p, line-1, in) {
				add[i] = true
			}
		}
		tests = tests || strings.HasSuffix(string(m[1]), "_test.go")
		for _, id := range messageIdentifiers(m[3]) {
			idents[id] = true
		}
	}
	// Messages without a position ("undefined reference to `foo'").
	for _, l := range bytes.Split(output, []byte("\n")) {
		if !positionRe.Match(l) {
			for _, id := range quotedIdentifiers(l) {
				idents[id] = true
			}
		}
	}
	// When the messages say which names are missing ("undefined: x",
	// "has no field or method x", "'x' undeclared") or unused ("declared
	// and not used: x", an import not used), those are the ones to look
	// for; the other words of such messages (the type of the operand,
	// an import path's elements) would bring in every change that
	// mentions them.
	missingAt, unusedAt := missingFiles(s, output), unusedFiles(s, output)
	if missing := missingNames(output); len(missing) > 0 || len(unusedAt) > 0 {
		idents = missing
		for id := range unusedAt {
			idents[id] = true
		}
	}
	for _, i := range s.requirementsFor(output, in) {
		add[i] = true
	}
	if len(idents) > 0 {
		var rest, added []int
		for i := range s.Changes {
			// Test files are not built with the package, unless a
			// message is about one.
			if in[i] || !tests && strings.HasSuffix(s.Changes[i].Path, "_test.go") {
				continue
			}
			switch s.Changes[i].Kind {
			case Hunk:
				rest = append(rest, i)
			case Add:
				added = append(added, i)
			}
		}
		for id := range idents {
			// A missing name is looked for first where it is declared:
			// the changes that declare it, or, for a package name, that
			// import it in a file that misses it. There are few of those
			// where the changes that use the name may be thousands (a
			// type of a generated API), and adding the uses would only
			// bring more configurations' worth of changes that need
			// more.
			if missingAt[id] != nil {
				var decl []int
				for _, i := range slices.Concat(rest, added) {
					if s.declares(i, id, missingAt[id]) {
						decl = append(decl, i)
					}
				}
				if len(decl) > 0 {
					for _, i := range decl {
						add[i] = true
					}
					continue
				}
			}
			// A name declared or imported and not used in a file: the
			// changes of that file that use it.
			if files := unusedAt[id]; files != nil {
				var users []int
				for _, i := range rest {
					if files[s.Changes[i].Path] && s.mentions(i, id) {
						users = append(users, i)
					}
				}
				if len(users) > 0 {
					for _, i := range users {
						add[i] = true
					}
					continue
				}
			}
			var users []int
			for _, i := range rest {
				if s.mentions(i, id) {
					users = append(users, i)
				}
			}
			// An identifier most remaining changes mention tells nothing.
			if len(users) > max(4, len(rest)/2) {
				continue
			}
			for _, i := range users {
				add[i] = true
			}
		}
	}
	out := make([]int, 0, len(add))
	for i := range add {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// requirementsFor returns the go.mod changes not in the configuration
// (in) that require the module of a package whose name qualifies a
// missing name in a Go build's output ("undefined: pkg.Name", "type
// *pkg.T has no field or method Name"): code that uses a new API of
// another module needs the new requirement of that module, which no
// change mentions by the missing name. A qualifier is an import's name
// (its alias, or the last element of its path) in a file the output
// names, or the last element of a required module's path.
func (s *Set) requirementsFor(output []byte, in map[int]bool) []int {
	quals := map[string]bool{}
	for _, m := range qualifiedRe.FindAllSubmatch(output, -1) {
		for _, g := range m[1:] {
			if len(g) > 0 {
				quals[string(g)] = true
			}
		}
	}
	if len(quals) == 0 {
		return nil
	}
	// The import paths the qualifiers name in the files of the output.
	var imports []string
	for _, m := range positionRe.FindAllSubmatch(output, -1) {
		p := s.findPath(string(m[1]))
		for _, f := range []map[string]*filetree.File{s.Old.Files, s.New.Files} {
			if f[p] == nil {
				continue
			}
			for _, l := range bytes.Split(f[p].Data, []byte("\n")) {
				if im := importSpecRe.FindSubmatch(l); im != nil && quals[cmp.Or(string(im[1]), guessName(string(im[2])))] {
					imports = append(imports, string(im[2]))
				}
			}
		}
	}
	var out []int
	for i, c := range s.Changes {
		if in[i] || c.Kind != Hunk || path.Base(c.Path) != "go.mod" {
			continue
		}
		for _, l := range c.New {
			mod, _, ok := requireLine(l)
			if ok && (quals[guessName(mod)] || slices.ContainsFunc(imports, func(p string) bool { return p == mod || strings.HasPrefix(p, mod+"/") })) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// missingFiles maps each name the output's messages say is missing to
// the files (of the set) of those messages.
func missingFiles(s *Set, output []byte) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, m := range positionRe.FindAllSubmatch(output, -1) {
		p := s.findPath(string(m[1]))
		for id := range missingNames(m[3]) {
			if out[id] == nil {
				out[id] = map[string]bool{}
			}
			out[id][p] = true
		}
	}
	return out
}

// unusedFiles maps each name the output's messages say is declared or
// imported and not used (Go: "declared and not used: x", "\"p/q\"
// imported and not used", "\"p/q\" imported as r and not used") to the
// files of those messages: the name is the variable, or the package's
// name in the file.
func unusedFiles(s *Set, output []byte) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, m := range positionRe.FindAllSubmatch(output, -1) {
		u := unusedRe.FindSubmatch(m[3])
		if u == nil {
			continue
		}
		id := cmp.Or(string(u[1]), string(u[3]), string(u[4]))
		if id == "" {
			id = guessName(string(u[2]))
		}
		if out[id] == nil {
			out[id] = map[string]bool{}
		}
		out[id][s.findPath(string(m[1]))] = true
	}
	return out
}

// unusedRe matches Go's messages of an unused variable (group 1, or 4 in
// the older form) or import (its path, group 2, and its name, group 3,
// when it has one).
var unusedRe = regexp.MustCompile(`declared and not used: ([A-Za-z_][A-Za-z0-9_]*)|"([^"]+)" imported (?:as ([A-Za-z_][A-Za-z0-9_]*) )?and not used|([A-Za-z_][A-Za-z0-9_]*) declared (?:but|and) not used`)

// declares says whether change i declares name id on its new side: a
// hunk's new lines, or an added file; or, in one of files, imports a
// package under that name. A line declares id when it begins with it
// after func (with a receiver or not), type, var, const or #define, or
// begins with id followed by a type, an assignment or another name of
// the same declaration (a struct field, an entry of a const, var or type
// block, a short variable declaration).
func (s *Set) declares(i int, id string, files map[string]bool) bool {
	ch := &s.Changes[i]
	lines := ch.New
	if ch.Kind == Add {
		f := s.New.Files[ch.Path]
		if f == nil || !bytes.Contains(f.Data, []byte(id)) {
			return false
		}
		lines = bytes.Split(f.Data, []byte("\n"))
	}
	for _, l := range lines {
		if !bytes.Contains(l, []byte(id)) {
			continue
		}
		if m := declRe.FindSubmatch(l); m != nil && cmp.Or(string(m[1]), string(m[2])) == id {
			return true
		}
		if im := importSpecRe.FindSubmatch(l); im != nil && files[ch.Path] && cmp.Or(string(im[1]), guessName(string(im[2]))) == id {
			return true
		}
	}
	return false
}

// declRe matches a line that declares a name (see declares): the name
// is its first or its second group.
var declRe = regexp.MustCompile(`^\s*(?:(?:func\s*(?:\([^)]*\)\s*)?|type\s+|var\s+|const\s+|#\s*define\s+)([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)\s*(?:,\s*[A-Za-z_][A-Za-z0-9_]*\s*)*(?::=|=[^=]|\s[\s*\[(]*[A-Za-z_(]))`)

// qualifiedRe matches, in Go's messages, the package name qualifying a
// missing name: "undefined: pkg.Name", and the type's package in "type
// *pkg.T has no field or method Name".
var qualifiedRe = regexp.MustCompile(`undefined: ([A-Za-z_][A-Za-z0-9_]*)\.[A-Za-z_]|type \*?([A-Za-z_][A-Za-z0-9_]*)\.[A-Za-z_][A-Za-z0-9_]* has no field or method`)

// importSpecRe matches an import spec on a line of Go source: its name,
// if it has one (not for a dot import), and its path.
var importSpecRe = regexp.MustCompile(`^\s*(?:import\s+)?(?:([A-Za-z_][A-Za-z0-9_]*)\s+|\.\s+)?"([^"]+)"`)

// missingRe matches what compilers and linkers say of a name that is not
// there: Go's "undefined: x", "x.y undefined (...)" and "has no field or
// method y", C's "'x' undeclared", "implicit declaration of function 'x'"
// and the linker's "undefined reference to `x'".
var missingRe = regexp.MustCompile("undefined: ([A-Za-z_][A-Za-z0-9_.]*)|([A-Za-z_][A-Za-z0-9_.]*) undefined \\(|has no field or method ([A-Za-z_][A-Za-z0-9_]*)|['‘]([A-Za-z_][A-Za-z0-9_]*)['’] undeclared|implicit declaration of function ['‘]([A-Za-z_][A-Za-z0-9_]*)|undefined reference to [`'‘]([A-Za-z_][A-Za-z0-9_]*)")

// missingNames lists the names an output says are missing; for "x.y"
// both parts (the package or value, and the selected name). A name a
// message says is missing is one even when it is a common word of
// messages ("undefined: types", a package's name).
func missingNames(output []byte) map[string]bool {
	out := map[string]bool{}
	for _, m := range missingRe.FindAllSubmatch(output, -1) {
		for _, g := range m[1:] {
			for _, id := range strings.Split(string(g), ".") {
				if len(id) >= 3 {
					out[id] = true
				}
			}
		}
	}
	return out
}

// positionRe matches "file.ext:line[:col]: message" anywhere in a line.
var positionRe = regexp.MustCompile(`(?m)([A-Za-z0-9_./\-]*[A-Za-z0-9_\-]\.[A-Za-z0-9]+):(\d+)(?::\d+)?:\s*(.*)$`)

// findPath maps a path from a build message (relative to some directory,
// or absolute into a work directory) to a path of the set's trees.
func (s *Set) findPath(p string) string {
	p = path.Clean(p)
	best := ""
	for q := range s.byPath {
		if (p == q || strings.HasSuffix(p, "/"+q)) && len(q) > len(best) {
			best = q
		}
	}
	return best
}

// near returns the changes of path p not in c whose lines lie within two
// lines of line (0-based) of the file as configured by c.
func (s *Set) near(p string, line int, in map[int]bool) []int {
	var out []int
	shift := 0 // configured line minus old line, before the current hunk
	for _, i := range s.byPath[p] {
		ch := &s.Changes[i]
		if ch.Kind != Hunk {
			if !in[i] {
				out = append(out, i) // the file itself is missing or old
			}
			continue
		}
		start := ch.OldStart + shift
		if in[i] {
			shift += len(ch.New) - len(ch.Old)
			continue
		}
		end := start + len(ch.Old) // the old lines stand in the configured file
		if line >= start-2 && line <= end+1 {
			out = append(out, i)
		}
	}
	return out
}

// mentions reports whether change i's old or new lines hold id as a word.
func (s *Set) mentions(i int, id string) bool {
	ch := &s.Changes[i]
	for _, side := range [][][]byte{ch.Old, ch.New} {
		for _, l := range side {
			for _, w := range identifiers(l) {
				if w == id {
					return true
				}
			}
		}
	}
	return false
}

// messageWords are words of compiler messages that name no program
// entity, and keywords of common languages.
var messageWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`undefined declared defined used not and the has have had for with too many few
		enough arguments argument call type types field method value values variable variables constant
		cannot use using assignment mismatch function return returns missing imported import expected
		found want got this that block other declaration package error errors warning note implicit
		non name names redeclared unknown invalid operation operand mismatched converted convert
		struct interface func var const map chan range break continue goto default switch case select
		defer else string int int64 int32 uint uint64 uint32 byte rune bool float32 float64 error nil
		true false new make len cap append copy delete panic print println complex real imag
		void char short long double unsigned signed static extern include define endif ifdef
		reference member members previous here there line column file does doesn which when from into
		undeclared first incompatible pointer integer without cast makes expression statement
		identifier before after token syntax unexpected expecting label parameter parameters result results
		compile compiler build failed exit status level main`) {
		messageWords[w] = true
	}
}

// messageIdentifiers lists the identifiers of a message that could name a
// program entity: words of at least three characters that are not common
// words of compiler messages; for "x.y" both x and y.
func messageIdentifiers(msg []byte) []string {
	var out []string
	for _, id := range identifiers(msg) {
		if !messageWords[strings.ToLower(id)] {
			out = append(out, id)
		}
	}
	return out
}

// quotedIdentifiers lists identifiers quoted in a line without position,
// as linkers write them: `foo', 'foo', "foo".
func quotedIdentifiers(l []byte) []string {
	var out []string
	for _, m := range quotedRe.FindAllSubmatch(l, -1) {
		if id := string(m[1]); !messageWords[strings.ToLower(id)] && len(id) >= 3 {
			out = append(out, id)
		}
	}
	return out
}

var quotedRe = regexp.MustCompile("[`'\"]([A-Za-z_][A-Za-z0-9_]*)['\"]")
