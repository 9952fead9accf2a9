package p

func f(x int) int {
	if x > 0 {
		x = 1
	} else {
		x = 2
	}
	return x
}
