// Command client converts a string (the first argument) to snake case
// with xstrings.ToSnakeCase and prints the result.
package main

import (
	"fmt"
	"os"

	"github.com/huandu/xstrings"
)

func main() {
	fmt.Println(xstrings.ToSnakeCase(os.Args[1]))
}
