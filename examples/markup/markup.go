// Command markup is the Debugging Book's remove_html_markup() in Go. This
// file plays the book's Assertions module: removeHTMLMarkup and the
// functions around it, none of which matters for the failure. main.go
// holds the book's two checks: the normal behavior (tags are removed) and
// "My Test", which fails: double quotes outside tags are lost.
//
//	wynot reduce --with examples/markup/main.go -o reduced.go examples/markup/markup.go -- go run markup.go main.go
package main

//lint:file-ignore U1000 the functions beside removeHTMLMarkup are there to be reduced away

import (
	"fmt"
	"math"
	"strings"
)

// removeHTMLMarkup returns s without its HTML tags.
func removeHTMLMarkup(s string) string {
	tag := false
	quote := false
	out := ""

	for _, c := range s {
		if c == '<' && !quote {
			tag = true
		} else if c == '>' && !quote {
			tag = false
		} else if c == '"' || c == '\'' && tag {
			quote = !quote
		} else if !tag {
			out = out + string(c)
		}
	}

	// postcondition
	if strings.Contains(out, "<") || strings.Contains(out, ">") {
		panic("postcondition violated")
	}
	return out
}

// squareRoot computes the square root of x by Newton's method.
func squareRoot(x float64) float64 {
	if x < 0 {
		panic("precondition: x >= 0")
	}
	approx := 0.0
	guess := x / 2
	for approx != guess {
		approx = guess
		guess = (approx + x/approx) / 2
	}
	if math.Abs(approx*approx-x) > 1e-9*math.Max(1, x) {
		panic("postcondition violated")
	}
	return approx
}

// Time is a time of day.
type Time struct {
	Hours, Minutes, Seconds int
}

// NewTime checks its arguments.
func NewTime(h, m, s int) Time {
	if h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 60 {
		panic(fmt.Sprintf("invalid time %d:%d:%d", h, m, s))
	}
	return Time{h, m, s}
}

// String formats t as hh:mm:ss.
func (t Time) String() string {
	return fmt.Sprintf("%02d:%02d:%02d", t.Hours, t.Minutes, t.Seconds)
}

// RedBlackTree is a stub with a representation invariant.
type RedBlackTree struct {
	root  *node
	count int
}

type node struct {
	left, right *node
	red         bool
	key         int
}

// RepOK checks the tree's invariant.
func (t *RedBlackTree) RepOK() bool {
	return t.root == nil || !t.root.red && t.count >= 1
}

// Insert adds key to the tree.
func (t *RedBlackTree) Insert(key int) {
	t.root = &node{left: t.root, key: key}
	t.count++
	if !t.RepOK() {
		panic("invariant violated")
	}
}
