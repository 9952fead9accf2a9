// Command client parses an ISO 8601 duration (the first argument) and
// prints it back, or the parser's error.
package main

import (
	"fmt"
	"os"

	"github.com/sosodev/duration"
)

func main() {
	d, err := duration.Parse(os.Args[1])
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(d.String())
}
