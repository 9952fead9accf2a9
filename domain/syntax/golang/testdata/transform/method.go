package p

type I interface {
	M()
	N() int
}
