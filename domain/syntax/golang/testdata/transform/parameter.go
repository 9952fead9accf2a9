package p

func f(a int, b string) int { return a }

func g() int { return f(1, "one") + f(2, "two") }
