package codediff

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/wynot/wynot/domain/syntax/golang"
	"golang.org/x/mod/modfile"
)

// Needs computes which changes need which other changes to build, for Go
// source and go.mod files: needs[i] lists the changes that change i
// cannot be applied without (FSE 1999 §5: an integration or construction
// failure; §6: changes related by syntactic criteria). A change needs
//
//   - the change that declares a name it uses, when the old version has
//     no such name (a new function and its callers, a renamed field and
//     its new uses, an added import and the code that uses it);
//   - the changes that remove the uses of a name it removes (a renamed
//     field and its old uses);
//   - for an import or a local variable, which Go refuses to leave
//     unused, the changes that hold all its uses, in both directions;
//   - in go.mod, the go.sum lines of a requirement it adds, and a change
//     importing a package of a newly required module needs the
//     requirement;
//   - for a declaration moved to another file (the change that removes
//     it from the old file and the one that adds it to the new), each
//     other;
//   - for a part of an added file cut by its declarations (Refine), the
//     file's header (its package clause).
//
// Names are resolved by go/types, package by package, with the packages
// of the tree's own module imported from the tree and every other import
// left empty: uses of names the tree declares resolve exactly, others
// are ignored. Files whose package does not parse contribute nothing.
// context supplies every file the set's trees leave out (the trees of a
// set built from a git commit hold only the files the commit changes);
// nil when they are whole.
func (s *Set) Needs(context *Tree) [][]int {
	oldT, newT := s.whole(context, s.Old), s.whole(context, s.New)
	oldOwn, newOwn := s.owners(oldT, newT)
	oldFacts := analyze(oldT, oldOwn)
	newFacts := analyze(newT, newOwn)
	need := make([]map[int]bool, s.Len())
	add := func(i, j int) {
		if i == j || i < 0 || j < 0 {
			return
		}
		if need[i] == nil {
			need[i] = map[int]bool{}
		}
		need[i][j] = true
	}
	// New names: their users need them; an unused one needs its users.
	for key, f := range newFacts.objects {
		if _, existed := oldFacts.objects[key]; existed || f.decl < 0 {
			continue
		}
		for _, u := range f.uses {
			add(u, f.decl)
		}
		// An import spec of an added file cut into parts needs one of
		// its users, not all: the parts that use it each need it, and a
		// part with none of them fails to build on its own.
		if f.mustUse && !f.usedElsewhere && !(s.Changes[f.decl].NewFile && len(distinct(f.uses)) > 1) {
			for _, u := range f.uses {
				add(f.decl, u)
			}
		}
	}
	// Removed names: removing them needs removing their uses; removing
	// the last uses of an import or local needs removing it.
	for key, f := range oldFacts.objects {
		if _, still := newFacts.objects[key]; still || f.decl < 0 {
			continue
		}
		for _, u := range f.uses {
			add(f.decl, u)
		}
		if f.mustUse && !f.usedElsewhere {
			for _, u := range f.uses {
				add(u, f.decl)
			}
		}
	}
	// Moved names: a package-level name that a change to one file
	// declares in the old tree and a change to another file in the new
	// (a declaration moved to another file) is declared twice with only
	// the new change applied, and missing with only the old one. (Within
	// one file, a declaration's line replaced by another, the search
	// finds what goes together: making the two line edits one changes
	// its path, and on semver's regression led it to a patch that fails
	// another way.)
	for key, fo := range oldFacts.objects {
		if fn, ok := newFacts.objects[key]; ok && fo.decl >= 0 && fn.decl >= 0 && s.Changes[fo.decl].Path != s.Changes[fn.decl].Path && !strings.Contains(key, ".local.") {
			add(fo.decl, fn.decl)
			add(fn.decl, fo.decl)
		}
	}
	s.moduleNeeds(add)
	s.fileNeeds(add)
	out := make([][]int, s.Len())
	for i, m := range need {
		for j := range m {
			out[i] = append(out[i], j)
		}
		sort.Ints(out[i])
	}
	return out
}

// distinct is l without repetitions.
func distinct(l []int) []int {
	var out []int
	for _, x := range l {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// Closure returns c (sorted change indices) with every change its
// changes need, transitively, sorted.
func Closure(needs [][]int, c []int) []int {
	in := make(map[int]bool, len(c))
	stack := append([]int(nil), c...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[i] {
			continue
		}
		in[i] = true
		if i < len(needs) {
			stack = append(stack, needs[i]...)
		}
	}
	out := make([]int, 0, len(in))
	for i := range in {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// whole is side (the set's old or new tree) with every path the set does
// not touch taken from context.
func (s *Set) whole(context, side *Tree) *Tree {
	if context == nil {
		return side
	}
	t := &Tree{Files: make(map[string]*File, len(context.Files))}
	for p, f := range context.Files {
		if _, touched := s.byPath[p]; !touched && f != nil {
			t.Files[p] = f
		}
	}
	for p, f := range side.Files {
		if f != nil {
			t.Files[p] = f
		}
	}
	return t
}

// owners maps each line of the old and the new tree to the change that
// removes or adds it: by path, one entry per line, -1 for an unchanged
// line.
func (s *Set) owners(oldT, newT *Tree) (old, nw map[string][]int) {
	old, nw = map[string][]int{}, map[string][]int{}
	lines := func(t *Tree, m map[string][]int, p string) []int {
		if l, ok := m[p]; ok {
			return l
		}
		f := t.Files[p]
		if f == nil || f.Link != "" {
			return nil
		}
		l := make([]int, bytes.Count(f.Data, []byte("\n"))+1)
		for k := range l {
			l[k] = -1
		}
		m[p] = l
		return l
	}
	mark := func(l []int, from, n, i int) {
		for k := from; k < from+n && k < len(l); k++ {
			if k >= 0 {
				l[k] = i
			}
		}
	}
	for i, c := range s.Changes {
		switch c.Kind {
		case Hunk:
			mark(lines(oldT, old, c.Path), c.OldStart, len(c.Old), i)
			mark(lines(newT, nw, c.Path), c.NewStart, len(c.New), i)
		case Add:
			l := lines(newT, nw, c.Path)
			mark(l, 0, len(l), i)
		case Delete:
			l := lines(oldT, old, c.Path)
			mark(l, 0, len(l), i)
		case Rename, Replace:
			from := c.Path
			if c.Kind == Rename {
				from = c.From
			}
			l := lines(oldT, old, from)
			mark(l, 0, len(l), i)
			l = lines(newT, nw, c.Path)
			mark(l, 0, len(l), i)
		}
	}
	return old, nw
}

// fact is what one tree says about a named entity: the change whose lines
// declare it (-1: unchanged lines), the changes whose lines use it, and
// whether Go requires it to be used (imports and local variables) and
// some use lies outside the changes or in the declaring change itself.
type fact struct {
	decl          int
	uses          []int
	mustUse       bool
	usedElsewhere bool
}

type facts struct {
	objects map[string]*fact // by a key that names the entity the same way in both trees
}

// analyze type-checks the Go packages of t and records, for every entity
// declared in t, which changes declare and use it (owners gives the
// change of each line).
func analyze(t *Tree, owners map[string][]int) *facts {
	g := goTree(t, token.NewFileSet())
	a := &analysis{g: g, out: &facts{objects: map[string]*fact{}}, owners: owners, fields: map[*types.Var]string{}}
	g.Info, g.Checked = true, a.record
	// Only packages with changed lines can hold a need between changes;
	// the packages they import are checked (and recorded) as imports.
	var changed []string
	for p := range owners {
		if d := path.Dir(p); g.Has(d) && !slices.Contains(changed, d) {
			changed = append(changed, d)
		}
	}
	sort.Strings(changed)
	for _, d := range changed {
		for _, gp := range g.Packages(d) {
			g.Check(gp)
		}
	}
	return a.out
}

// analysis gathers the facts of one tree's packages as they are checked.
type analysis struct {
	g      *golang.Loader
	out    *facts
	owners map[string][]int
	fields map[*types.Var]string // the key of each field of a named struct type of the tree
}

// record adds the facts of a checked package: for each entity declared
// in it, its declaring and using changes.
func (a *analysis) record(gp *golang.Package) {
	keys := a.keys(gp)
	fileOf := func(pos token.Pos) (string, int) {
		p := a.g.Fset.Position(pos)
		return p.Filename, p.Line - 1
	}
	owner := func(pos token.Pos) int {
		file, line := fileOf(pos)
		if l := a.owners[file]; line >= 0 && line < len(l) {
			return l[line]
		}
		return -1
	}
	get := func(obj types.Object) *fact {
		k, mustUse := keys(obj)
		if k == "" {
			return nil
		}
		f := a.out.objects[k]
		if f == nil {
			f = &fact{decl: owner(obj.Pos()), mustUse: mustUse}
			a.out.objects[k] = f
		}
		return f
	}
	// In the order of the source: of two entities of one key (two
	// locals of one name in one function), the first one's change
	// declares it, the same in every run.
	for _, id := range inOrder(gp.Info.Defs) {
		if obj := gp.Info.Defs[id]; obj != nil && id.Name != "_" {
			get(obj)
		}
	}
	for _, id := range inOrder(gp.Info.Uses) {
		obj := gp.Info.Uses[id]
		if obj == nil || !a.local(obj) {
			continue
		}
		f := get(obj)
		if f == nil {
			continue
		}
		if u := owner(id.Pos()); u >= 0 && u != f.decl {
			f.uses = append(f.uses, u)
		} else {
			f.usedElsewhere = true
		}
	}
}

// inOrder returns the identifiers of m in the order of their positions.
func inOrder(m map[*ast.Ident]types.Object) []*ast.Ident {
	ids := slices.Collect(maps.Keys(m))
	slices.SortFunc(ids, func(a, b *ast.Ident) int { return cmp.Compare(a.Pos(), b.Pos()) })
	return ids
}

// local reports whether obj is declared in the tree (not in an empty
// package standing for another module, nor a builtin).
func (a *analysis) local(obj types.Object) bool {
	if !obj.Pos().IsValid() {
		return false
	}
	if _, ok := obj.(*types.PkgName); ok {
		return true
	}
	return obj.Pkg() != nil && a.g.Loaded(obj.Pkg().Path())
}

// keys returns the function that names an entity of gp the same way in
// both trees: package-level names by package and name, methods and
// fields by their type, locals by their function, imports by file; and
// says whether Go requires it to be used.
func (a *analysis) keys(gp *golang.Package) func(types.Object) (string, bool) {
	scope := gp.Types.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				a.fields[st.Field(i)] = gp.ImportPath + "." + n + "." + st.Field(i).Name()
			}
		}
	}
	var funcs, params []span
	for _, f := range gp.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = exprString(fd.Recv.List[0].Type) + "." + name
			}
			funcs = append(funcs, span{fd.Pos(), fd.End(), name})
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ft, ok := n.(*ast.FuncType); ok {
				params = append(params, span{ft.Pos(), ft.End(), ""})
			}
			return true
		})
	}
	funcAt, inParams := newSpans(funcs), newSpans(params)
	return func(obj types.Object) (string, bool) {
		pkg := gp.ImportPath
		if obj.Pkg() != nil {
			pkg = obj.Pkg().Path()
		}
		switch o := obj.(type) {
		case *types.PkgName:
			return a.g.Fset.Position(o.Pos()).Filename + ":import:" + o.Name(), true
		case *types.Label:
			return "", false
		case *types.Func:
			if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
				return pkg + "." + recvName(sig.Recv().Type()) + "." + o.Name(), false
			}
		case *types.Var:
			if o.IsField() {
				return a.fields[o], false // "" for fields of unnamed structs
			}
		}
		if o := obj; o.Pkg() != nil && o.Parent() == o.Pkg().Scope() {
			return pkg + "." + o.Name(), false
		}
		fn := funcAt.last(obj.Pos())
		isParam := inParams.hold(obj.Pos())
		_, isVar := obj.(*types.Var)
		return gp.ImportPath + "." + fn + ".local." + obj.Name(), isVar && !isParam
	}
}

// A span is the extent of a syntax node, and a name for it.
type span struct {
	pos, end token.Pos
	name     string
}

// spans are the extents of a package's nodes of one kind, nested or
// disjoint, sorted by start: which hold a position is found by binary
// search (a package of thousands of functions has hundreds of thousands
// of names to place).
type spans struct {
	list   []span
	maxEnd []token.Pos // maxEnd[i] is the greatest end in list[:i+1]
}

func newSpans(l []span) spans {
	slices.SortFunc(l, func(a, b span) int { return cmp.Compare(a.pos, b.pos) })
	m := make([]token.Pos, len(l))
	for i, s := range l {
		m[i] = s.end
		if i > 0 && m[i-1] > m[i] {
			m[i] = m[i-1]
		}
	}
	return spans{l, m}
}

// at returns the index of the span that starts last at or before pos
// (-1 when none does).
func (s spans) at(pos token.Pos) int {
	return sort.Search(len(s.list), func(k int) bool { return s.list[k].pos > pos }) - 1
}

// last returns the name of the span that starts last at or before pos
// when it holds pos: of disjoint spans, the one that holds pos.
func (s spans) last(pos token.Pos) string {
	if i := s.at(pos); i >= 0 && pos < s.list[i].end {
		return s.list[i].name
	}
	return ""
}

// hold says whether any span holds pos.
func (s spans) hold(pos token.Pos) bool {
	i := s.at(pos)
	return i >= 0 && pos < s.maxEnd[i]
}

func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// moduleNeeds adds the needs between go.mod, go.sum and imports: a
// go.mod change that requires a module version needs the go.sum changes
// that add its checksums, and a change that imports a package of a
// module the old go.mod does not require needs the go.mod change that
// adds the requirement.
func (s *Set) moduleNeeds(add func(i, j int)) {
	var oldSel, newSel map[string]bool // the names the old and the new tree's Go files select (x.Name), made when first needed
	quals := map[qualKey][]string{}    // apiChange's
	for i, c := range s.Changes {
		if c.Kind != Hunk || path.Base(c.Path) != "go.mod" {
			continue
		}
		dir := path.Dir(c.Path)
		inDir := func(p string) bool { return dir == "." || strings.HasPrefix(p, dir+"/") }
		oldReq := requirements(s.Old.Files[c.Path])
		for _, l := range c.New {
			mod, ver, ok := requireLine(l)
			if !ok {
				continue
			}
			for j, d := range s.Changes {
				if d.Kind != Hunk || !inDir(d.Path) {
					continue
				}
				switch {
				case path.Base(d.Path) == "go.sum":
					for _, sl := range d.New {
						if f := strings.Fields(string(sl)); len(f) >= 2 && f[0] == mod && strings.TrimSuffix(f[1], "/go.mod") == ver {
							add(i, j)
						}
					}
				case strings.HasSuffix(d.Path, ".go") && !oldReq[mod]:
					for _, nl := range d.New {
						if imp := importSpecRe.FindSubmatch(nl); imp != nil {
							if p := string(imp[2]); p == mod || strings.HasPrefix(p, mod+"/") {
								add(j, i)
							}
						}
					}
				case strings.HasSuffix(d.Path, ".go"):
					// Another version of a module required before: a
					// change that uses a name of its packages that the
					// old tree never uses likely uses its new API, and
					// one that stops using a name the new tree never
					// uses likely follows a name the new version took
					// away.
					if s.apiChange(&s.Changes[j], mod, false, &oldSel, quals) {
						add(j, i)
					}
					if s.apiChange(&s.Changes[j], mod, true, &newSel, quals) {
						add(i, j)
					}
				}
			}
		}
	}
}

// requireLine reads a requirement from a line of go.mod that a hunk
// adds: "require M V", or "M V" inside a require block (a line alone,
// which modfile cannot parse).
func requireLine(l []byte) (mod, ver string, ok bool) {
	f := strings.Fields(string(l))
	if len(f) > 0 && f[0] == "require" {
		f = f[1:]
	}
	if len(f) < 2 || len(f) > 2 && f[2] != "//" || !strings.HasPrefix(f[1], "v") || strings.HasPrefix(f[0], "//") || !strings.Contains(f[0], ".") {
		return "", "", false
	}
	return f[0], f[1], true
}

// requirements lists the modules a go.mod requires.
func requirements(f *File) map[string]bool {
	out := map[string]bool{}
	if f == nil {
		return out
	}
	mf, err := modfile.ParseLax("go.mod", f.Data, nil)
	if err != nil {
		return out
	}
	for _, r := range mf.Require {
		out[r.Mod.Path] = true
	}
	return out
}

// apiChange says whether hunk d's lines on one side (its new lines, or
// with old its old lines) select a name from a package of module mod
// (by the name d's file imports it under on that side) that no Go file
// of the other tree selects: a name of that module's new API the new
// code starts to use, or one the old code used that the new code no
// longer does (which the module's new version may have removed). sel
// holds the names the other tree selects, made on the first call; quals
// the names files import the module under, by side, path and module.
func (s *Set) apiChange(d *Change, mod string, old bool, sel *map[string]bool, quals map[qualKey][]string) bool {
	side, other, lines := s.New, s.Old, d.New
	if old {
		side, other, lines = s.Old, s.New, d.Old
	}
	f := side.Files[d.Path]
	if f == nil || len(lines) == 0 {
		return false
	}
	key := qualKey{old, d.Path, mod}
	q, ok := quals[key]
	if !ok {
		for _, l := range bytes.Split(f.Data, []byte("\n")) {
			if im := importSpecRe.FindSubmatch(l); im != nil {
				if p := string(im[2]); p == mod || strings.HasPrefix(p, mod+"/") {
					q = append(q, cmp.Or(string(im[1]), guessName(p)))
				}
			}
		}
		quals[key] = q
	}
	if len(q) == 0 {
		return false
	}
	if *sel == nil {
		*sel = map[string]bool{}
		for p, of := range other.Files {
			if of != nil && strings.HasSuffix(p, ".go") {
				for _, m := range selectorRe.FindAllSubmatch(of.Data, -1) {
					(*sel)[string(m[1])+"."+string(m[2])] = true
				}
			}
		}
	}
	for _, l := range lines {
		for _, m := range selectorRe.FindAllSubmatch(l, -1) {
			if slices.Contains(q, string(m[1])) && !(*sel)[string(m[1])+"."+string(m[2])] {
				return true
			}
		}
	}
	return false
}

// qualKey names the names a file imports a module under, on one side.
type qualKey struct {
	old       bool
	path, mod string
}

// selectorRe matches a selector of Go source, x.Name.
var selectorRe = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)`)

// exprString is a method's receiver type as its name writes it: "*T".
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return exprString(e.X)
	}
	return "?"
}
