package main

import (
	"errors"
	"fmt"
)

func sign(n int) int {
	if n < 0 {
		return -1
	}
	if n == 0 {
		return 0
	}
	return 1
}

func must(n int) int {
	if n > 0 {
		return n
	}
	panic("not positive") // the last statement: terminating
}

func pick(n int) (string, error) {
	switch {
	case n > 1:
		return "many", nil
	default:
		return "", errors.New("few")
	}
}

func named(n int) (out int) {
	out = n * 2
	return
}

func forever(n int) int {
	for {
		if n > 10 {
			return n
		}
		n *= 2
	}
}

func main() {
	s, err := pick(1)
	fmt.Println(sign(-3), sign(0), sign(5), must(4), s, err, named(3), forever(1))
}
