package p

func f(s string) string { return g(s) }

func g(s string) string { return s + s }
