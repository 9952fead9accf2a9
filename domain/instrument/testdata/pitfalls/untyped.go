package main

import "fmt"

const big = 1 << 40

func main() {
	a := 1
	b := 'x'
	c := 2.5
	d := big >> 38
	var e = 1 << 3
	var f float32 = 1 << 3
	var g, h = "g", 7.0
	n := uint(3)
	i := 1 << n // the untyped 1 takes its type from the declaration
	var k int64 = 1 << n
	fmt.Println(a, b, c, d, e, f, g, h, i, k)
	fmt.Printf("%T %T %T %T %T %T %T %T\n", a, b, c, d, e, f, i, k)
}
