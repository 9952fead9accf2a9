package p

// f does nothing.
func f() {}
