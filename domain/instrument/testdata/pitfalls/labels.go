package main

import "fmt"

func main() {
	n := 0
outer:
	for i := 0; i < 5; i++ {
		for j := 0; j < 5; j++ {
			if j == 3 {
				continue outer
			}
			if i == 3 {
				break outer
			}
			n++
		}
	}
	k := 0
loop:
	k++
	if k < 4 {
		goto loop
	}
	switch k {
	case 4:
		n += 100
		fallthrough
	case 5:
		n += 1000
	}
	var sel int
	ch := make(chan int, 1)
	ch <- 1
	select {
	case v := <-ch:
		sel = v
	default:
	}
	fmt.Println(n, k, sel)
}
