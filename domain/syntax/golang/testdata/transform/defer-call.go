package p

func f(g func()) {
	defer g()
}
