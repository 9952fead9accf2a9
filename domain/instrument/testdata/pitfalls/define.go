package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

type pair struct{ a, b int }

func two() (int, error) { return 2, nil }

func main() {
	x := 1
	if len(os.Args) > 5 {
		x := x + 1 // shadows the outer x, which the right side reads
		fmt.Println(x)
	}
	y, err := two()
	z, err := two() // redeclares err
	p := pair{x, y}
	q := &p
	d := 2 * time.Second // a type from another package
	var sb strings.Builder
	sb.WriteString("s")
	r := strings.NewReader("abc") // *strings.Reader
	f := func(n int) int { return n * x }
	s := []struct{ n int }{{1}, {2}}
	fmt.Println(x, y, z, err, q.a, d, sb.String(), r.Len(), f(3), s)
}
