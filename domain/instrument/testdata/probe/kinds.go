package main

import (
	"fmt"
	"os"
	"strconv"
)

type node struct {
	val  int
	next *node
}

type shape interface{ area() int }

type rect struct{ w, h int }

func (r rect) area() int { return r.w * r.h }

type box struct {
	Label  string
	Scores []int
	tags   map[string]int
	data   []byte
	grid   [2]bool
	ratio  float64
	list   *node
	s      shape
	ch     chan int
	f      func()
	weight uint8
}

var total = 7

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	b := &box{Label: "b" + os.Args[1], Scores: []int{1, 2, n}, tags: map[string]int{"x": 1, "y": n},
		data: []byte("ab"), grid: [2]bool{true, n > 1}, ratio: float64(n) / 2,
		list: &node{1, &node{n, nil}}, s: rect{n, 2}, ch: make(chan int), f: func() {}, weight: uint8(n)}
	if n > 2 {
		b.tags["z"] = 3
		b.Scores = append(b.Scores, 9)
	}
	alias := b.Scores[:2]
	p := &b.Scores[1]
	var keep []int
	if n == 3 {
		keep = b.Scores
	} else {
		keep = []int{1, 2, 3, 9}
	}
	total += n
	fmt.Println(b.Label, b.Scores, alias, *p, keep, b.tags, string(b.data), b.grid, b.ratio, b.list.next.val, b.s.area(), b.weight, total) // probe
}
