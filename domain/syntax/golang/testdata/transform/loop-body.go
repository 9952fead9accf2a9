package p

func f(x int) int {
	for i := 0; i < 10; i++ {
		x += 2
	}
	return x
}
