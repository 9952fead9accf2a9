// Package report prints tables of counts.
package report

import (
	"fmt"
	"io"
	"sort"

	"example.com/tool/internal/format"
)

// Table is counts by name.
type Table map[string]int

// Names returns the table's names, sorted.
func (t Table) Names() []string {
	var ns []string
	for n := range t {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Print writes the table.
func (t Table) Print(w io.Writer) {
	fmt.Fprintf(w, format.Header, "name", "count")
	for _, n := range t.Names() {
		fmt.Fprintf(w, format.Row, n, t[n])
	}
}

// Total is the sum of the counts.
func (t Table) Total() int {
	s := 0
	for _, v := range t {
		s += v
	}
	return s
}
