//go:build !cgo

package sql

import "github.com/wynot/wynot/domain/syntax"

// Without cgo there is no grammar: SQL is absent from the table of
// package syntax, which says so of its files.
func init() { syntax.RegisterAbsent(absent) }
