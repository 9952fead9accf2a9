// Command client prints the raw result of a gjson path (the second
// argument) on a JSON document (the first).
package main

import (
	"fmt"
	"os"

	"github.com/tidwall/gjson"
)

func main() {
	fmt.Println(gjson.Get(os.Args[1], os.Args[2]).Raw)
}
