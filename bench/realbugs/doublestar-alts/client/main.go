// Command client prints whether a path (the second argument) matches a
// glob pattern (the first).
package main

import (
	"fmt"
	"os"

	"github.com/bmatcuk/doublestar/v4"
)

func main() {
	ok, err := doublestar.Match(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(ok)
}
