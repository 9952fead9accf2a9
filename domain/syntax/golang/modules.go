package golang

import (
	"bytes"
	"go/build"
	"io"
	"path"
	"strings"

	"golang.org/x/mod/modfile"
)

// Modules are the Go modules of a tree: the module path each go.mod
// declares (read with modfile), by the slash-separated directory that
// holds it ("." for the root). They map the tree's directories to import
// paths and back, as the go command does: the one place that does so
// for the type checks of candidates (Tree) and for the needs between
// code changes (package codediff).
type Modules map[string]string

// ReadModules reads the modules of a tree from its files, by
// slash-separated path (only the go.mod files are read).
func ReadModules(files map[string][]byte) Modules {
	m := Modules{}
	for p, data := range files {
		if path.Base(p) == "go.mod" {
			if mod := modfile.ModulePath(data); mod != "" {
				m[path.Dir(p)] = mod
			}
		}
	}
	return m
}

// Module is the module path and directory of the go.mod nearest above
// dir (dir itself included), or "" and "." when none is.
func (m Modules) Module(dir string) (mod, root string) {
	for d := path.Clean(dir); ; d = path.Dir(d) {
		if mod, ok := m[d]; ok {
			return mod, d
		}
		if d == "." || d == "/" {
			return "", "."
		}
	}
}

// ImportPath is the import path of the package in dir: its module's
// path joined with dir below the module's root, or dir itself outside
// any module.
func (m Modules) ImportPath(dir string) string {
	mod, root := m.Module(dir)
	switch {
	case mod == "":
		return dir
	case dir == root:
		return mod
	case root == ".":
		return mod + "/" + dir
	}
	return mod + "/" + strings.TrimPrefix(dir, root+"/")
}

// DirOf is the directory of the tree an import path names: below the
// root of the module whose path is the longest prefix of it, or "" when
// no module of the tree holds it. The directory need not hold Go files.
func (m Modules) DirOf(imp string) string {
	best, dir := "", ""
	for root, mod := range m {
		if len(mod) <= len(best) {
			continue
		}
		if imp == mod {
			best, dir = mod, root
		} else if rest, ok := strings.CutPrefix(imp, mod+"/"); ok {
			best, dir = mod, path.Join(root, rest)
		}
	}
	return dir
}

// Only is the module that holds dir alone: the other modules of a tree
// are what the go command takes from the module cache (their export
// data) unless a replace directive says otherwise, so to a package of
// one module only its own module's import paths name directories of the
// tree.
func (m Modules) Only(dir string) Modules {
	mod, root := m.Module(dir)
	if mod == "" {
		return Modules{}
	}
	return Modules{root: mod}
}

// Hidden says whether the go command ignores a path: one with a
// directory or file whose name begins with "." or "_", or a testdata
// directory.
func Hidden(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if part != "." && strings.HasPrefix(part, ".") || strings.HasPrefix(part, "_") || part == "testdata" {
			return true
		}
	}
	return false
}

// Builds says whether the go command, building for this machine
// (runtime's GOOS and GOARCH, cgo as go/build finds it), compiles the Go
// file at slash-separated path p, of content data, with its package:
// whether its name's _GOOS and _GOARCH suffixes and its //go:build line
// hold ("ignore" never does). It reads the file's header as go/build's
// MatchFile does; a header that does not parse builds, so that the
// parse reports the error as the compiler would.
func Builds(p string, data []byte) bool {
	ctxt := build.Default
	ctxt.JoinPath = path.Join
	ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	ok, err := ctxt.MatchFile(path.Dir(p), path.Base(p))
	return ok || err != nil
}
