package p

func f(x int) int {
	switch x {
	case 1:
		x = 10
	default:
		x = 0
	}
	return x
}
