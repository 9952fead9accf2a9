package p

func f(a, b int) int { return a + b }
