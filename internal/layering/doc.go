// Package layering holds the test that keeps wynot's import graph as
// DESIGN.md draws it: the algorithms in dd depend on nothing that touches
// the operating system, and only the runner starts processes.
package layering
