package main

import (
	"fmt"
	"strings"
)

func main() {
	x := 10
	var (
		lines = strings.Split("a\nb\nc", "\n")
		n     = len(lines) // an earlier name of the group
		y     int          // a declaration only
		b                  = new(strings.Builder)
		total float64      = 1.5
	)
	{
		var (
			z = x + 1 // refers to the outer x: fine, no z before
			x = 2     // a later name of the group referred to above: unguarded
		)
		fmt.Println(z, x)
	}
	b.WriteString("ok")
	fmt.Println(lines, n, y, b.String(), total)
	mixed()
}

// mixed declares a variable of a type from another package and, in one
// spec, two of different types: the group stays unguarded, and imports
// nothing for the first.
func mixed() {
	var (
		sb   = new(strings.Builder)
		r, w = strings.NewReader("x"), 3
	)
	fmt.Println(sb.Len(), r.Len(), w)
}
