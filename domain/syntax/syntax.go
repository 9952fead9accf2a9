// Package syntax reduces inputs as syntax trees: it keeps the table of
// the languages inputs are reduced in, picks an input's language from
// --split or the file name, and gives its reduction passes. Each
// language is a value (Language): Go from package golang (through go/ast
// and go/types), the others from package treesitter (through tree-sitter
// grammars). A language's package registers it (Register); whoever
// reduces in it imports that package. A language this wynot was built
// without (the tree-sitter grammars need cgo) is registered absent
// instead (RegisterAbsent): its files are reduced as text, and the
// reduction says why.
package syntax

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/wynot/wynot/domain/decomp"
)

// Syntax is how an input is reduced as a syntax tree in its language.
type Syntax struct {
	Lang string // the language's name: "go", or a grammar's name
	// Finish makes a candidate of the token and character passes of
	// auto well-formed text or rejects it: Go candidates are printed as
	// gofmt would (white space makes no difference), and those that do
	// not parse are predicted Unresolved.
	Finish func([]byte) ([]byte, error)
	// Format prints a well-formed text as the language's formatter would
	// (Go: gofmt), or is nil.
	Format func([]byte) ([]byte, error)
	// Passes lists the tree passes of one round over data.
	Passes func(data []byte) ([]decomp.Pass, error)
	// Typed says the language predicts candidates beyond parsing when
	// asked to (Go's type checks: Language.Predicts).
	Typed bool
	// Renames says the tree passes shorten names at every use already,
	// so the text passes need no replacements of words.
	Renames bool
}

// Exec runs a command, argv[0] with its arguments, and returns what it
// wrote to its standard output; the error says why it could not run or
// did not end cleanly. A language is handed one to learn its context
// (Go: the export data of a module's requirements): a domain runs no
// process itself.
type Exec func(argv []string) (stdout []byte, err error)

// Prediction is what a language says of a candidate it rejected though
// the candidate parses (a Go candidate with a new type error): such a
// candidate is predicted unresolved, unless a test that does not compile
// the code is found to fail on one all the same.
type Prediction struct {
	// Class is where the prediction holds: "" for a file on its own,
	// else a part of a tree (a Go package's directory, a go.mod) in
	// which a test may need the code to compile or not.
	Class string
	// Still is what is said when a candidate so predicted still fails
	// its test, so that such candidates are tested from then on.
	Still string
}

// Language is one language inputs are reduced in: its passes, Finish
// and Format (Open), its predictions beyond parsing (Predicts), and, for
// a directory reduced as a whole, how its files bundle into units and
// what else it knows of the tree (Tree).
type Language interface {
	// Name is the language's name, as --split and the logs say it.
	Name() string
	// Match says whether --split auto reduces a file called name in the
	// language (by its extension).
	Match(name string) bool
	// Open prepares data, a file on its own, which must parse; with
	// typeCheck a language that predicts beyond parsing does so.
	Open(data []byte, typeCheck bool) (*Syntax, error)
	// Predicts says whether err, with which a pass's plan rejected a
	// candidate, is a prediction beyond parsing, and which.
	Predicts(err error) (Prediction, bool)
	// Untested says, after a verdict of 1-minimality, which candidates
	// were predicted and not run: off are the classes where a probe
	// found predictions to predict nothing; units are the tree's extra
	// units (Tree.Units).
	Untested(off []string, units []Unit) string
	// Tree prepares the language for a directory reduced as a whole.
	// It returns nil when the language's files are reduced each on its
	// own, and notes to show the user (what its context is made of).
	Tree(d Dir) (Tree, []string)
}

// Dir is a directory reduced as a whole, as a language is told of it.
type Dir struct {
	Root  string            // its absolute path
	Files map[string][]byte // its files (not symbolic links), by slash-separated path
	// Parsed says that some file of the tree parsed in the language.
	Parsed    bool
	TypeCheck bool
	Exec      Exec // runs what the language needs to learn its context
}

// Unit is files of a tree reduced together, as one text (decomp.Bundle),
// so that a change can span them.
type Unit struct {
	Name  string   // in logs
	Files []string // its files' paths, in the bundle's order
	// Module says the files describe the others (a Go module's go.mod,
	// go.sum and vendor/modules.txt): their candidates are probed file by
	// file, not as the unit.
	Module bool
}

// Files are the files of a tree as they are now (not symbolic links),
// by slash-separated path; the map is made when asked for, only by a
// language that needs it.
type Files func() map[string][]byte

// Tree is a language's view of a directory reduced as a whole.
type Tree interface {
	// Group names the unit of a file in the language: the files of one
	// group (a Go package's directory) are one unit.
	Group(name string) (key, unit string)
	// Units are further units over files, the tree's files as they are
	// now without those only ever removed whole: a Go module's go.mod
	// with its go.sum and vendor/modules.txt.
	Units(files map[string][]byte) []Unit
	// Passes are the tree passes of unit u, whose text is data.
	Passes(u Unit, data []byte, files Files) ([]decomp.Pass, error)
	// File is a file of the language prepared among the tree's files,
	// for its text passes, or nil to keep it as it was opened.
	File(name string, data []byte, files Files) *Syntax
	// Finish predicts the candidates of the text passes over a file not
	// in the language that the language knows of (a go.mod), or is nil.
	Finish(name string, data []byte, files Files) func([]byte) ([]byte, error)
}

var (
	mu        sync.Mutex
	languages []Language
	absent    []Absent
)

// Register adds a language to the table; its package does so when
// loaded. A name registered twice, or also absent (RegisterAbsent), is
// a mistake.
func Register(l Language) {
	mu.Lock()
	defer mu.Unlock()
	for _, o := range languages {
		if o.Name() == l.Name() {
			panic("syntax: language " + l.Name() + " registered twice")
		}
	}
	for _, a := range absent {
		if a.Name == l.Name() {
			panic("syntax: language " + l.Name() + " registered and absent")
		}
	}
	i, _ := slices.BinarySearchFunc(languages, l.Name(), func(o Language, name string) int { return strings.Compare(o.Name(), name) })
	languages = slices.Insert(languages, i, l)
}

// Languages lists the table of languages by name (so that the order
// does not depend on the order in which their packages were loaded).
func Languages() []Language {
	mu.Lock()
	defer mu.Unlock()
	return append([]Language(nil), languages...)
}

// Trees asks each language of the table for its view of the directory
// d (Language.Tree), telling it whether some of its files parse in it
// (parsed); it returns the views there are, in the table's order and by
// language, and what the languages note.
func Trees(d Dir, parsed func(lang string) bool) (trees []Tree, byLang map[string]Tree, notes []string) {
	byLang = map[string]Tree{}
	for _, l := range Languages() {
		d.Parsed = parsed(l.Name())
		t, ns := l.Tree(d)
		notes = append(notes, ns...)
		if t != nil {
			trees = append(trees, t)
			byLang[l.Name()] = t
		}
	}
	return trees, byLang, notes
}

// Absent is a language wynot knows of but this build of it lacks (a
// tree-sitter grammar, which needs cgo): it is in no table, and its
// files are reduced as text, with a note that says why (Note).
type Absent struct {
	Name  string // as --split would name it: "c"
	Title string // as it is written: "C"
	// Exts are the file name extensions --split auto would pick it by,
	// with the dot; none for a language whose files are text unless
	// asked for (HTML).
	Exts []string
	Why  string // why this wynot lacks it
}

// Note says what becomes of the language's files, and why: "C is
// reduced as text: this wynot was built without cgo, …".
func (a Absent) Note() string { return a.Title + " is reduced as text: " + a.Why }

// RegisterAbsent adds a language this wynot lacks to the list of those
// it knows of (Absents); the package that would register it does so
// when loaded. A name registered twice, or also in the table, is a
// mistake.
func RegisterAbsent(a Absent) {
	mu.Lock()
	defer mu.Unlock()
	for _, o := range languages {
		if o.Name() == a.Name {
			panic("syntax: language " + a.Name + " registered and absent")
		}
	}
	for _, o := range absent {
		if o.Name == a.Name {
			panic("syntax: language " + a.Name + " registered absent twice")
		}
	}
	i, _ := slices.BinarySearchFunc(absent, a.Name, func(o Absent, name string) int { return strings.Compare(o.Name, name) })
	absent = slices.Insert(absent, i, a)
}

// Absents lists the languages this wynot knows of but lacks, by name.
func Absents() []Absent {
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(absent)
}

// AbsentOf finds the language this wynot lacks that a file called name
// would be reduced in by its extension, when no language of the table
// takes it.
func AbsentOf(name string) (Absent, bool) {
	if LangOf(name) != "" {
		return Absent{}, false
	}
	ext := filepath.Ext(strings.ToLower(filepath.Base(name)))
	for _, a := range Absents() {
		if slices.Contains(a.Exts, ext) {
			return a, true
		}
	}
	return Absent{}, false
}

// Names lists the languages' names.
func Names() []string {
	var ns []string
	for _, l := range Languages() {
		ns = append(ns, l.Name())
	}
	return ns
}

// Lookup finds a language by name.
func Lookup(name string) (Language, error) {
	for _, l := range Languages() {
		if l.Name() == name {
			return l, nil
		}
	}
	return nil, fmt.Errorf("no language %q (known: %s)", name, strings.Join(Names(), ", "))
}

// LangOf picks the language of an input by its file name's extension:
// a language's name, or "" for text.
func LangOf(name string) string {
	base := strings.ToLower(filepath.Base(name))
	for _, l := range Languages() {
		if l.Match(base) {
			return l.Name()
		}
	}
	return ""
}

// New prepares lang for data, a file on its own, which must parse.
func New(lang string, data []byte, typeCheck bool) (*Syntax, error) {
	l, err := Lookup(lang)
	if err != nil {
		return nil, err
	}
	return l.Open(data, typeCheck)
}

// Predicts asks the languages of the table whether err is a prediction
// beyond parsing (Language.Predicts).
func Predicts(err error) (Prediction, bool) {
	for _, l := range Languages() {
		if p, ok := l.Predicts(err); ok {
			return p, true
		}
	}
	return Prediction{}, false
}
