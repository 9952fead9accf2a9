// Package enum reads and writes the names of small enumerations, the
// typed choices of wynot's flags (precision, convention, grouping, split
// mode), so that each is a type with a String table that flag.TextVar
// can parse.
package enum

import (
	"fmt"
	"strings"
)

// Name returns names[v], or "Type(v)" for a value outside the table.
func Name[T ~int](names []string, v T, typ string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}

// Parse returns the value named s. Its error lists the names, as in
// "want none, dirs or files", for the caller to complete.
func Parse[T ~int](names []string, s string) (T, error) {
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("want %s", List(names))
}

// List joins names as a sentence does: "a, b or c".
func List(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
