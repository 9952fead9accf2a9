// scale scores 1500 records and prints the best one: a run of about
// 10⁵ statement instances whose output depends on few of them.
package main

import "fmt"

func score(i int) int {
	s := 0
	for j := 0; j < 80; j++ {
		s += (i*j + i/3) % 7
		if s > 200 {
			s -= 11
		}
	}
	return s
}

func main() {
	n := 1500
	best, at := -1, -1
	for i := 0; i < n; i++ {
		v := score(i)
		if v > best {
			best, at = v, i
		}
	}
	fmt.Println("best", best, "at", at)
}
