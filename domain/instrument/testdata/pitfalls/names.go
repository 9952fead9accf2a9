package main

import "fmt"

// Identifiers that look like generated ones: the generated names must
// not clash with them.
var _wynotrt = "mine"

func _wynott1() int { return 1 }

func main() {
	_wynotp1 := _wynott1()
	fmt.Println(_wynotrt, _wynotp1)
}
