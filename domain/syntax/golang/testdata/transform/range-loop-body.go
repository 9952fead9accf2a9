package p

func f(xs []int) int {
	n := 0
	for range xs {
		n++
	}
	return n
}
