package p

func f() {
loop:
	for {
		return
	}
}
