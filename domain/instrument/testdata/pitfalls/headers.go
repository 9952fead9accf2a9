package main

import (
	"errors"
	"fmt"
	"strconv"
)

func parse(s string) (int, error) {
	if n, err := strconv.Atoi(s); err != nil {
		return 0, fmt.Errorf("parse %q: %w", s, err)
	} else if n < 0 {
		return 0, errors.New("negative")
	} else if m := n * 2; m > 10 {
		return m, nil
	} else {
		return n, nil
	}
}

type shape interface{ area() int }
type square struct{ side int }

func (s square) area() int { return s.side * s.side }

func main() {
	for _, s := range []string{"3", "-1", "x", "8"} {
		n, err := parse(s)
		fmt.Println(n, err)
	}
	count := 0
	if count++; count > 0 {
		fmt.Println("counted", count)
	}
	if fmt.Print("side effect "); true {
		fmt.Println("then")
	}
	switch k := len("four"); {
	case k > 3:
		fmt.Println("long", k)
	default:
		fmt.Println("short", k)
	}
	switch v := strconv.Itoa(42); v {
	case "42":
		fmt.Println("forty-two")
	}
	var x shape = square{3}
	switch y := x; t := y.(type) {
	case square:
		fmt.Println("square", t.area())
	}
	i := 0
loop:
	if j := i + 1; j < 3 {
		i = j
		goto loop
	}
	fmt.Println("i", i)
	if a, b := 1,
		2; a < b {
		fmt.Println("two lines", a, b)
	}
	m := map[string]int{"k": 1}
	if v, ok := m["k"]; ok {
		fmt.Println("found", v)
	}
	if _, err := strconv.Atoi("y"); err != nil {
		fmt.Println("blank", err)
	}
	err := errors.New("outer")
	if err := fmt.Errorf("inner"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(err)
}
