// Command client builds the decimal coefficient × 10^exponent (the first
// two arguments, as decimal.New does), rounds it to the given number of
// decimal places (the third) with banker's rounding (half to even) and
// prints the result.
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/shopspring/decimal"
)

func main() {
	var n [3]int64
	for i := range n {
		v, err := strconv.ParseInt(os.Args[i+1], 10, 32)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		n[i] = v
	}
	d := decimal.New(n[0], int32(n[1]))
	fmt.Println(d.String(), "->", d.RoundBank(int32(n[2])).String())
}
