package p

func compute(value int) int {
	result := value * 2
	return result
}
