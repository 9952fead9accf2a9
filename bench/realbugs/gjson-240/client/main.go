// Command client prints the elements of Result.Array for a gjson path
// (the second argument) on a JSON document (the first).
package main

import (
	"fmt"
	"os"

	"github.com/tidwall/gjson"
)

func main() {
	a := gjson.Get(os.Args[1], os.Args[2]).Array()
	fmt.Println(len(a), "elements")
	for _, r := range a {
		fmt.Println(r.Raw)
	}
}
