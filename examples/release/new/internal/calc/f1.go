package calc

// F10 computes a value.
func F10(x int) int {
	y := 0 + x
	return y
}

// F11 computes a value.
func F11(x int) int {
	y := 1 + x
	return y
}

// F12 computes a value.
func F12(x int) int {
	y := 2 + x
	return y
}

// F13 computes a value.
func F13(x int) int {
	y := 3 + x
	return y
}

// F14 computes a value.
func F14(x int) int {
	y := 4 + x
	return y
}

// F15 computes a value.
func F15(x int) int {
	y := 5 + x
	return y
}

// F16 computes a value.
func F16(x int) int {
	y := 6 + x
	return y
}

// F17 computes a value.
func F17(x int) int {
	y := 7 + x
	return y
}

// F18 computes a value.
func F18(x int) int {
	y := 8 + x
	return y
}

// F19 computes a value.
func F19(x int) int {
	y := 9 + x
	return y
}

// F110 computes a value.
func F110(x int) int {
	y := 10 + x
	return y
}

// F111 computes a value.
func F111(x int) int {
	y := 11 + x
	return y
}

// F112 computes a value.
func F112(x int) int {
	y := 12 + x
	return y
}

// F113 computes a value.
func F113(x int) int {
	y := 13 + x
	return y
}

// F114 computes a value.
func F114(x int) int {
	y := 14 + x
	return y
}

// F115 computes a value.
func F115(x int) int {
	y := 15 + x
	return y
}

// F116 computes a value.
func F116(x int) int {
	y := 16 + x
	return y
}

// F117 computes a value.
func F117(x int) int {
	y := 17 + x
	return y
}

// F118 computes a value.
func F118(x int) int {
	y := 18 + x
	return y
}

// F119 computes a value.
func F119(x int) int {
	y := 19 + x
	return y
}

// F120 computes a value.
func F120(x int) int {
	y := 20 + x
	return y
}

// F121 computes a value.
func F121(x int) int {
	y := 21 + x
	return y
}

// F122 computes a value.
func F122(x int) int {
	y := 22 + x
	return y
}

// F123 computes a value.
func F123(x int) int {
	y := 23 + x
	return y
}

// F124 computes a value.
func F124(x int) int {
	y := 24 + x
	return y
}

// F125 computes a value.
func F125(x int) int {
	y := 25 + x
	return y
}

// F126 computes a value.
func F126(x int) int {
	y := 26 + x
	return y
}

// F127 computes a value.
func F127(x int) int {
	y := 27 + x
	return y
}
