package p

func f(a, b bool) bool { return a && b }
