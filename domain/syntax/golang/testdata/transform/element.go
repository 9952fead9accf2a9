package p

var xs = []int{1, 2, 3}
