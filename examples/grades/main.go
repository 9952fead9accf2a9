// Command grades prints each student's score and how it compares with
// the class median:
//
//	$ grades alice=50 bob=70 carol=90
//	alice 50 below the median (70)
//	bob 70 at the median (70)
//	carol 90 above the median (70)
//
// It has a defect: median sorts the scores it is given in place, so the
// caller's scores are reordered and every student after the first
// unsorted one is reported with someone else's score. Scores given in
// ascending order hide it.
package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Class is the students and their scores, in the order given.
type Class struct {
	Names  []string
	Scores []int
}

func parse(args []string) (*Class, error) {
	c := &Class{}
	for _, a := range args {
		name, score, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want name=score", a)
		}
		n, err := strconv.Atoi(score)
		if err != nil {
			return nil, err
		}
		c.Names = append(c.Names, name)
		c.Scores = append(c.Scores, n)
	}
	return c, nil
}

func median(s []int) int {
	sorted := s // the defect: the caller's slice is sorted in place
	sort.Ints(sorted)
	return sorted[len(sorted)/2]
}

func verdict(score, m int) string {
	switch {
	case score < m:
		return "below"
	case score > m:
		return "above"
	}
	return "at"
}

func report(c *Class, m int) {
	for i, name := range c.Names {
		fmt.Printf("%s %d %s the median (%d)\n", name, c.Scores[i], verdict(c.Scores[i], m), m)
	}
}

func main() {
	c, err := parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "grades:", err)
		os.Exit(1)
	}
	m := median(c.Scores)
	report(c, m)
}
