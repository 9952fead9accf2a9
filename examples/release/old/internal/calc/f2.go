package calc

// F20 computes a value.
func F20(x int) int {
	y := x + 0
	return y
}

// F21 computes a value.
func F21(x int) int {
	y := x + 1
	return y
}

// F22 computes a value.
func F22(x int) int {
	y := x + 2
	return y
}

// F23 computes a value.
func F23(x int) int {
	y := x + 3
	return y
}

// F24 computes a value.
func F24(x int) int {
	y := x + 4
	return y
}

// F25 computes a value.
func F25(x int) int {
	y := x + 5
	return y
}

// F26 computes a value.
func F26(x int) int {
	y := x + 6
	return y
}

// F27 computes a value.
func F27(x int) int {
	y := x + 7
	return y
}

// F28 computes a value.
func F28(x int) int {
	y := x + 8
	return y
}

// F29 computes a value.
func F29(x int) int {
	y := x + 9
	return y
}

// F210 computes a value.
func F210(x int) int {
	y := x + 10
	return y
}

// F211 computes a value.
func F211(x int) int {
	y := x + 11
	return y
}

// F212 computes a value.
func F212(x int) int {
	y := x + 12
	return y
}

// F213 computes a value.
func F213(x int) int {
	y := x + 13
	return y
}

// F214 computes a value.
func F214(x int) int {
	y := x + 14
	return y
}

// F215 computes a value.
func F215(x int) int {
	y := x + 15
	return y
}

// F216 computes a value.
func F216(x int) int {
	y := x + 16
	return y
}

// F217 computes a value.
func F217(x int) int {
	y := x + 17
	return y
}

// F218 computes a value.
func F218(x int) int {
	y := x + 18
	return y
}

// F219 computes a value.
func F219(x int) int {
	y := x + 19
	return y
}

// F220 computes a value.
func F220(x int) int {
	y := x + 20
	return y
}

// F221 computes a value.
func F221(x int) int {
	y := x + 21
	return y
}

// F222 computes a value.
func F222(x int) int {
	y := x + 22
	return y
}

// F223 computes a value.
func F223(x int) int {
	y := x + 23
	return y
}

// F224 computes a value.
func F224(x int) int {
	y := x + 24
	return y
}

// F225 computes a value.
func F225(x int) int {
	y := x + 25
	return y
}

// F226 computes a value.
func F226(x int) int {
	y := x + 26
	return y
}

// F227 computes a value.
func F227(x int) int {
	y := x + 27
	return y
}
