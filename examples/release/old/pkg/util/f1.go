package util

// F10 computes a value.
func F10(x int) int {
	y := x + 0
	return y
}

// F11 computes a value.
func F11(x int) int {
	y := x + 1
	return y
}

// F12 computes a value.
func F12(x int) int {
	y := x + 2
	return y
}

// F13 computes a value.
func F13(x int) int {
	y := x + 3
	return y
}

// F14 computes a value.
func F14(x int) int {
	y := x + 4
	return y
}

// F15 computes a value.
func F15(x int) int {
	y := x + 5
	return y
}

// F16 computes a value.
func F16(x int) int {
	y := x + 6
	return y
}

// F17 computes a value.
func F17(x int) int {
	y := x + 7
	return y
}

// F18 computes a value.
func F18(x int) int {
	y := x + 8
	return y
}

// F19 computes a value.
func F19(x int) int {
	y := x + 9
	return y
}

// F110 computes a value.
func F110(x int) int {
	y := x + 10
	return y
}

// F111 computes a value.
func F111(x int) int {
	y := x + 11
	return y
}

// F112 computes a value.
func F112(x int) int {
	y := x + 12
	return y
}

// F113 computes a value.
func F113(x int) int {
	y := x + 13
	return y
}

// F114 computes a value.
func F114(x int) int {
	y := x + 14
	return y
}

// F115 computes a value.
func F115(x int) int {
	y := x + 15
	return y
}

// F116 computes a value.
func F116(x int) int {
	y := x + 16
	return y
}

// F117 computes a value.
func F117(x int) int {
	y := x + 17
	return y
}

// F118 computes a value.
func F118(x int) int {
	y := x + 18
	return y
}

// F119 computes a value.
func F119(x int) int {
	y := x + 19
	return y
}

// F120 computes a value.
func F120(x int) int {
	y := x + 20
	return y
}

// F121 computes a value.
func F121(x int) int {
	y := x + 21
	return y
}

// F122 computes a value.
func F122(x int) int {
	y := x + 22
	return y
}

// F123 computes a value.
func F123(x int) int {
	y := x + 23
	return y
}

// F124 computes a value.
func F124(x int) int {
	y := x + 24
	return y
}

// F125 computes a value.
func F125(x int) int {
	y := x + 25
	return y
}

// F126 computes a value.
func F126(x int) int {
	y := x + 26
	return y
}

// F127 computes a value.
func F127(x int) int {
	y := x + 27
	return y
}
