package main

import (
	"fmt"
	"strings"
)

// helper is used twice.
func helper(s string) string { return strings.ToUpper(s) }

func main() {
	up := strings.ToUpper
	fmt.Println(up("x"))
	fmt.Println(helper("a"))
	if len(helper("b")) > 0 {
		fmt.Println("b")
	}
	fmt.Println("kept")
}
