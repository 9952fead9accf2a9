package p

var f = func() int {
	x := 3
	return x
}
