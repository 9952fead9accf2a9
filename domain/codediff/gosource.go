package codediff

import (
	"go/token"
	"path"
	"slices"
	"strings"

	"github.com/wynot/wynot/domain/syntax/golang"
)

// goTree loads the Go code of one tree as go build compiles it on this
// machine (golang.Loader, the loader wynot reduce reads a tree's
// packages with): the non-test files outside vendor/ whose build
// constraints hold, by directory; the tree's modules; and its packages,
// parsed and type-checked from source when first needed, each once.
// Packages of other modules are empty (their names guessed from the
// import path), so what uses them cannot be checked. Both the needs
// between changes (analyze) and the check of a configuration
// (BuildCheck) read a tree through it.
func goTree(t *Tree, fset *token.FileSet) *golang.Loader {
	files := make(map[string][]byte, len(t.Files))
	for p, f := range t.Files {
		if f != nil && f.Link == "" && (path.Base(p) == "go.mod" || goSource(p)) {
			files[p] = f.Data
		}
	}
	return golang.NewLoader(fset, files, goSource)
}

// goSource says whether p is a Go file that go build compiles with its
// package, build constraints aside (golang.Source), and not in a vendor
// directory: the code of other modules, whose needs between changes are
// not looked for.
func goSource(p string) bool {
	return golang.Source(p) && !vendored(p)
}

// vendored says whether p is in a vendor directory.
func vendored(p string) bool {
	return slices.Contains(strings.Split(path.Dir(p), "/"), "vendor")
}

// guessName is the package name an import path most likely declares
// (golang.GuessName).
func guessName(p string) string { return golang.GuessName(p) }
