// sample computes the sum and the product of the numbers from a to b:
// sample.pl of "Finding Failure Causes through Automated Testing"
// (AADEBUG 2000, §6), in Go.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	sum := 0
	mul := 1
	a, _ := strconv.Atoi(os.Args[1])
	b, _ := strconv.Atoi(os.Args[2])
	for a <= b {
		sum = sum + a
		mul = mul * a
		a = a + 1
	}
	fmt.Println("sum =", sum)
	fmt.Println("mul =", mul)
}
