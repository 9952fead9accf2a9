// Command client converts a string (the first argument) to a uint64 with
// cast.ToUint64 and prints the result.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cast"
)

func main() {
	fmt.Println(cast.ToUint64(os.Args[1]))
}
