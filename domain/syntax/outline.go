package syntax

// Decl is one top-level declaration of a source file, or a piece of one
// that can go without the others (a Go import spec), as an Outliner
// finds it.
type Decl struct {
	// Name names it in a group of changes: "main", "T.M", "import", or
	// the grammar's kind of node with its name ("function_definition
	// parse"). Declarations of one name are one group.
	Name string
	// Start and End are its first and last lines, counted from 0; Start
	// is where its doc comment begins. The declarations of a file are in
	// order and do not overlap.
	Start, End int
	// Header marks lines other declarations need: of the file (a Go
	// package clause, the parentheses of an import block) when Of is "",
	// else the first or last lines of the container Of (a C++
	// namespace's "namespace x {" and "}"), which its members need. An
	// added file cut into its declarations makes each part need the
	// header parts it is in.
	Header bool
	Of     string
	// In is the container the declaration is a member of ("" at the top
	// level).
	In string
}

// An Outliner is a Language that knows the top-level declarations of a
// file: wynot changes groups a changed file's hunks by the declaration
// each is in, and refines an added file into its declarations.
type Outliner interface {
	// Outline lists the declarations of a file called name, in order; it
	// returns nil when data does not parse.
	Outline(name string, data []byte) []Decl
}

// OutlineOf outlines a file by the language its name picks (LangOf),
// when that language is an Outliner; nil otherwise, or when the file
// does not parse.
func OutlineOf(name string, data []byte) []Decl {
	lang := LangOf(name)
	if lang == "" {
		return nil
	}
	l, err := Lookup(lang)
	if err != nil {
		return nil
	}
	if o, ok := l.(Outliner); ok {
		return o.Outline(name, data)
	}
	return nil
}
