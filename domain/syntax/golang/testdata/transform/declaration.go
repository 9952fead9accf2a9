package p

import "strings"

func f() string { return strings.ToUpper("x") }

func g() {}
