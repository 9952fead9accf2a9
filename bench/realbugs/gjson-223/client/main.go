// Command client adds the custom modifier @string of gjson issue #223
// (the JSON quoted as a string) and prints the raw result of a path (the
// second argument) on a JSON document (the first).
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/tidwall/gjson"
)

func main() {
	gjson.AddModifier("string", func(json, arg string) string {
		return strconv.Quote(json)
	})
	fmt.Println(gjson.Get(os.Args[1], os.Args[2]).Raw)
}
