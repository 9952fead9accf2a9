package calc

// F30 computes a value.
func F30(x int) int {
	y := x + 0
	return y
}

// F31 computes a value.
func F31(x int) int {
	y := x + 1
	return y
}

// F32 computes a value.
func F32(x int) int {
	y := x + 2
	return y
}

// F33 computes a value.
func F33(x int) int {
	y := x + 3
	return y
}

// F34 computes a value.
func F34(x int) int {
	y := x + 4
	return y
}

// F35 computes a value.
func F35(x int) int {
	y := x + 5
	return y
}

// F36 computes a value.
func F36(x int) int {
	y := x + 6
	return y
}

// F37 computes a value.
func F37(x int) int {
	y := x + 7
	return y
}

// F38 computes a value.
func F38(x int) int {
	y := x + 8
	return y
}

// F39 computes a value.
func F39(x int) int {
	y := x + 9
	return y
}

// F310 computes a value.
func F310(x int) int {
	y := x + 10
	return y
}

// F311 computes a value.
func F311(x int) int {
	y := x + 11
	return y
}

// F312 computes a value.
func F312(x int) int {
	y := x + 12
	return y
}

// F313 computes a value.
func F313(x int) int {
	y := x + 13
	return y
}

// F314 computes a value.
func F314(x int) int {
	y := x + 14
	return y
}

// F315 computes a value.
func F315(x int) int {
	y := x + 15
	return y
}

// F316 computes a value.
func F316(x int) int {
	y := x + 16
	return y
}

// F317 computes a value.
func F317(x int) int {
	y := x + 17
	return y
}

// F318 computes a value.
func F318(x int) int {
	y := x + 18
	return y
}

// F319 computes a value.
func F319(x int) int {
	y := x + 19
	return y
}

// F320 computes a value.
func F320(x int) int {
	y := x + 20
	return y
}

// F321 computes a value.
func F321(x int) int {
	y := x + 21
	return y
}

// F322 computes a value.
func F322(x int) int {
	y := x + 22
	return y
}

// F323 computes a value.
func F323(x int) int {
	y := x + 23
	return y
}

// F324 computes a value.
func F324(x int) int {
	y := x + 24
	return y
}

// F325 computes a value.
func F325(x int) int {
	y := x + 25
	return y
}

// F326 computes a value.
func F326(x int) int {
	y := x + 26
	return y
}

// F327 computes a value.
func F327(x int) int {
	y := x + 27
	return y
}
