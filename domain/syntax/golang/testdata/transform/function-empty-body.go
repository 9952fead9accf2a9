package p

import "errors"

func f(x int) (int, string, error) {
	if x > 0 {
		return x, "positive", errors.New("no")
	}
	return 0, "", nil
}
