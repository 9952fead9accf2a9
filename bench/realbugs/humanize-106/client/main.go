// Command client prints a number (the first argument) in SI notation
// with at most the given number of decimals (the second).
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/dustin/go-humanize"
)

func main() {
	x, err := strconv.ParseFloat(os.Args[1], 64)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	digits, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(humanize.SIWithDigits(x, digits, "B"))
}
