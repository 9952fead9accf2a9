// Package format holds the layouts the tool prints with.
package format

// Width is the column width of a table.
const Width = 12

// Row is the layout of one table row: a name and a count.
const Row = "%-12s %d\n"

// Header is the layout of the table's header.
const Header = "%-12s %s\n"

// Pad pads s to Width.
func Pad(s string) string {
	for len(s) < Width {
		s += " "
	}
	return s
}
