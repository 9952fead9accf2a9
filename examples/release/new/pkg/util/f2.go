package util

// F20 computes a value.
func F20(x int) int {
	y := 0 + x
	return y
}

// F21 computes a value.
func F21(x int) int {
	y := 1 + x
	return y
}

// F22 computes a value.
func F22(x int) int {
	y := 2 + x
	return y
}

// F23 computes a value.
func F23(x int) int {
	y := 3 + x
	return y
}

// F24 computes a value.
func F24(x int) int {
	y := 4 + x
	return y
}

// F25 computes a value.
func F25(x int) int {
	y := 5 + x
	return y
}

// F26 computes a value.
func F26(x int) int {
	y := 6 + x
	return y
}

// F27 computes a value.
func F27(x int) int {
	y := 7 + x
	return y
}

// F28 computes a value.
func F28(x int) int {
	y := 8 + x
	return y
}

// F29 computes a value.
func F29(x int) int {
	y := 9 + x
	return y
}

// F210 computes a value.
func F210(x int) int {
	y := 10 + x
	return y
}

// F211 computes a value.
func F211(x int) int {
	y := 11 + x
	return y
}

// F212 computes a value.
func F212(x int) int {
	y := 12 + x
	return y
}

// F213 computes a value.
func F213(x int) int {
	y := 13 + x
	return y
}

// F214 computes a value.
func F214(x int) int {
	y := 14 + x
	return y
}

// F215 computes a value.
func F215(x int) int {
	y := 15 + x
	return y
}

// F216 computes a value.
func F216(x int) int {
	y := 16 + x
	return y
}

// F217 computes a value.
func F217(x int) int {
	y := 17 + x
	return y
}

// F218 computes a value.
func F218(x int) int {
	y := 18 + x
	return y
}

// F219 computes a value.
func F219(x int) int {
	y := 19 + x
	return y
}

// F220 computes a value.
func F220(x int) int {
	y := 20 + x
	return y
}

// F221 computes a value.
func F221(x int) int {
	y := 21 + x
	return y
}

// F222 computes a value.
func F222(x int) int {
	y := 22 + x
	return y
}

// F223 computes a value.
func F223(x int) int {
	y := 23 + x
	return y
}

// F224 computes a value.
func F224(x int) int {
	y := 24 + x
	return y
}

// F225 computes a value.
func F225(x int) int {
	y := 25 + x
	return y
}

// F226 computes a value.
func F226(x int) int {
	y := 26 + x
	return y
}

// F227 computes a value.
func F227(x int) int {
	y := 27 + x
	return y
}
