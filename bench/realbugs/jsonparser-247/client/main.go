// Command client looks up a key path (the arguments after the first) in
// a JSON document (the first argument) and prints the value or the error.
package main

import (
	"fmt"
	"os"

	"github.com/buger/jsonparser"
)

func main() {
	v, typ, _, err := jsonparser.Get([]byte(os.Args[1]), os.Args[2:]...)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(typ, string(v))
}
