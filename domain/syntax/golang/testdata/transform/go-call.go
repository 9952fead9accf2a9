package p

func f(g func()) {
	go g()
}
