package main

import "fmt"

type Number interface{ ~int | ~float64 }

func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(x T) { s.items = append(s.items, x) }

func (s *Stack[T]) Pop() (T, bool) {
	if len(s.items) == 0 {
		var zero T
		return zero, false
	}
	x := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return x, true
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func main() {
	var st Stack[string]
	st.Push("a")
	st.Push("b")
	top, ok := st.Pop()
	fmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{0.5, 0.25}), top, ok)
	fmt.Println(Map([]int{1, 2}, func(n int) string { return fmt.Sprint(n * n) }))
}
