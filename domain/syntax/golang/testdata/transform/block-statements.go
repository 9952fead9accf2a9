package p

func f() int {
	x := 1
	{
		x++
	}
	return x
}
