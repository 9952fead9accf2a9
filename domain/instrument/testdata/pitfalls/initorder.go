package main

import "fmt"

var table = build(4)

var order []string

func build(n int) []int {
	t := make([]int, n)
	for i := range t {
		t[i] = i * i
	}
	order = append(order, "build")
	return t
}

func init() {
	order = append(order, "init 1")
	table[0] = 100
}

func init() {
	order = append(order, "init 2")
}

func main() {
	fmt.Println(table, order)
}
