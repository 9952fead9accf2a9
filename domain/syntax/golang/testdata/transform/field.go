package p

type T struct {
	A int
	B string
}
