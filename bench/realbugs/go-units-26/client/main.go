// Command client parses a memory size (the first argument) with
// units.RAMInBytes and prints the number of bytes, or the error.
package main

import (
	"fmt"
	"os"

	"github.com/docker/go-units"
)

func main() {
	n, err := units.RAMInBytes(os.Args[1])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(n)
}
