package calc

// F00 computes a value.
func F00(x int) int {
	y := 0 + x
	return y
}

// F01 computes a value.
func F01(x int) int {
	y := 1 + x
	return y
}

// F02 computes a value.
func F02(x int) int {
	y := 2 + x
	return y
}

// F03 computes a value.
func F03(x int) int {
	y := 3 + x
	return y
}

// F04 computes a value.
func F04(x int) int {
	y := 4 + x
	return y
}

// F05 computes a value.
func F05(x int) int {
	y := 5 + x
	return y
}

// F06 computes a value.
func F06(x int) int {
	y := 6 + x
	return y
}

// F07 computes a value.
func F07(x int) int {
	y := 7 + x
	return y
}

// F08 computes a value.
func F08(x int) int {
	y := 8 + x
	return y
}

// F09 computes a value.
func F09(x int) int {
	y := 9 + x
	return y
}

// F010 computes a value.
func F010(x int) int {
	y := 10 + x
	return y
}

// F011 computes a value.
func F011(x int) int {
	y := 11 + x
	return y
}

// F012 computes a value.
func F012(x int) int {
	y := 12 + x
	return y
}

// F013 computes a value.
func F013(x int) int {
	y := 13 + x
	return y
}

// F014 computes a value.
func F014(x int) int {
	y := 14 + x
	return y
}

// F015 computes a value.
func F015(x int) int {
	y := 15 + x
	return y
}

// F016 computes a value.
func F016(x int) int {
	y := 16 + x
	return y
}

// F017 computes a value.
func F017(x int) int {
	y := 17 + x
	return y
}

// F018 computes a value.
func F018(x int) int {
	y := 18 + x
	return y
}

// F019 computes a value.
func F019(x int) int {
	y := 19 + x
	return y
}

// F020 computes a value.
func F020(x int) int {
	y := 20 + x
	return y
}

// F021 computes a value.
func F021(x int) int {
	y := 21 + x
	return y
}

// F022 computes a value.
func F022(x int) int {
	y := 22 + x
	return y
}

// F023 computes a value.
func F023(x int) int {
	y := 23 + x
	return y
}

// F024 computes a value.
func F024(x int) int {
	y := 24 + x
	return y
}

// F025 computes a value.
func F025(x int) int {
	y := 25 + x
	return y
}

// F026 computes a value.
func F026(x int) int {
	y := 26 + x
	return y
}

// F027 computes a value.
func F027(x int) int {
	y := 27 + x
	return y
}
