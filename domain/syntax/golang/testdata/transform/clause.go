package p

func f(x int) int {
	switch x {
	case 1:
		return 10
	default:
		return 0
	}
}
