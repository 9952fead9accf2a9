package main

// main checks removeHTMLMarkup as the Debugging Book does: the normal
// behavior first (a different failure when it is broken), then "My Test".
func main() {
	if removeHTMLMarkup("<foo>bar</foo>") != "bar" {
		panic("missing functionality")
	}
	if got := removeHTMLMarkup(`"foo"`); got != `"foo"` {
		panic("My Test")
	}
}
