package calc

// F30 computes a value.
func F30(x int) int {
	y := 0 + x
	return y
}

// F31 computes a value.
func F31(x int) int {
	y := 1 + x
	return y
}

// F32 computes a value.
func F32(x int) int {
	y := 2 + x
	return y
}

// F33 computes a value.
func F33(x int) int {
	y := 3 + x
	return y
}

// F34 computes a value.
func F34(x int) int {
	y := 4 + x
	return y
}

// F35 computes a value.
func F35(x int) int {
	y := 5 + x
	return y
}

// F36 computes a value.
func F36(x int) int {
	y := 6 + x
	return y
}

// F37 computes a value.
func F37(x int) int {
	y := 7 + x
	return y
}

// F38 computes a value.
func F38(x int) int {
	y := 8 + x
	return y
}

// F39 computes a value.
func F39(x int) int {
	y := 9 + x
	return y
}

// F310 computes a value.
func F310(x int) int {
	y := 10 + x
	return y
}

// F311 computes a value.
func F311(x int) int {
	y := 11 + x
	return y
}

// F312 computes a value.
func F312(x int) int {
	y := 12 + x
	return y
}

// F313 computes a value.
func F313(x int) int {
	y := 13 + x
	return y
}

// F314 computes a value.
func F314(x int) int {
	y := 14 + x
	return y
}

// F315 computes a value.
func F315(x int) int {
	y := 15 + x
	return y
}

// F316 computes a value.
func F316(x int) int {
	y := 16 + x
	return y
}

// F317 computes a value.
func F317(x int) int {
	y := 17 + x
	return y
}

// F318 computes a value.
func F318(x int) int {
	y := 18 + x
	return y
}

// F319 computes a value.
func F319(x int) int {
	y := 19 + x
	return y
}

// F320 computes a value.
func F320(x int) int {
	y := 20 + x
	return y
}

// F321 computes a value.
func F321(x int) int {
	y := 21 + x
	return y
}

// F322 computes a value.
func F322(x int) int {
	y := 22 + x
	return y
}

// F323 computes a value.
func F323(x int) int {
	y := 23 + x
	return y
}

// F324 computes a value.
func F324(x int) int {
	y := 24 + x
	return y
}

// F325 computes a value.
func F325(x int) int {
	y := 25 + x
	return y
}

// F326 computes a value.
func F326(x int) int {
	y := 26 + x
	return y
}

// F327 computes a value.
func F327(x int) int {
	y := 27 + x
	return y
}
