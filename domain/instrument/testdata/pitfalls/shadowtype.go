package main

import "fmt"

type item struct{ typ int }

type Key []string

// The parameter item shadows the type item: a declaration of a
// variable of that type cannot be written here by the type's name.
func top(item item) int {
	x := item
	k := Key{"a"}
	return x.typ + len(k)
}

func main() {
	fmt.Println(top(item{typ: 2}))
}
