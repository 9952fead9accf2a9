package calc

// F00 computes a value.
func F00(x int) int {
	y := x + 0
	return y
}

// F01 computes a value.
func F01(x int) int {
	y := x + 1
	return y
}

// F02 computes a value.
func F02(x int) int {
	y := x + 2
	return y
}

// F03 computes a value.
func F03(x int) int {
	y := x + 3
	return y
}

// F04 computes a value.
func F04(x int) int {
	y := x + 4
	return y
}

// F05 computes a value.
func F05(x int) int {
	y := x + 5
	return y
}

// F06 computes a value.
func F06(x int) int {
	y := x + 6
	return y
}

// F07 computes a value.
func F07(x int) int {
	y := x + 7
	return y
}

// F08 computes a value.
func F08(x int) int {
	y := x + 8
	return y
}

// F09 computes a value.
func F09(x int) int {
	y := x + 9
	return y
}

// F010 computes a value.
func F010(x int) int {
	y := x + 10
	return y
}

// F011 computes a value.
func F011(x int) int {
	y := x + 11
	return y
}

// F012 computes a value.
func F012(x int) int {
	y := x + 12
	return y
}

// F013 computes a value.
func F013(x int) int {
	y := x + 13
	return y
}

// F014 computes a value.
func F014(x int) int {
	y := x + 14
	return y
}

// F015 computes a value.
func F015(x int) int {
	y := x + 15
	return y
}

// F016 computes a value.
func F016(x int) int {
	y := x + 16
	return y
}

// F017 computes a value.
func F017(x int) int {
	y := x + 17
	return y
}

// F018 computes a value.
func F018(x int) int {
	y := x + 18
	return y
}

// F019 computes a value.
func F019(x int) int {
	y := x + 19
	return y
}

// F020 computes a value.
func F020(x int) int {
	y := x + 20
	return y
}

// F021 computes a value.
func F021(x int) int {
	y := x + 21
	return y
}

// F022 computes a value.
func F022(x int) int {
	y := x + 22
	return y
}

// F023 computes a value.
func F023(x int) int {
	y := x + 23
	return y
}

// F024 computes a value.
func F024(x int) int {
	y := x + 24
	return y
}

// F025 computes a value.
func F025(x int) int {
	y := x + 25
	return y
}

// F026 computes a value.
func F026(x int) int {
	y := x + 26
	return y
}

// F027 computes a value.
func F027(x int) int {
	y := x + 27
	return y
}
