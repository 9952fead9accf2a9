// Flex copies each line of its input into a fixed buffer of N bytes (-n,
// default 2120), as the flex scanner generator did with fuzz input (TSE
// 2002 §4.3): a run of more than N characters without a newline or NUL
// overruns it. It reads the file named by its argument, or standard input.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	n := flag.Int("n", 2120, "buffer size")
	flag.Parse()
	var data []byte
	var err error
	if flag.NArg() > 0 {
		data, err = os.ReadFile(flag.Arg(0))
	} else {
		data, err = io.ReadAll(os.Stdin)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(scan(data, make([]byte, *n)), "tokens")
}

func scan(data, buf []byte) int {
	tokens, k := 0, 0
	for _, c := range data {
		if c == '\n' || c == 0 {
			k = 0
			tokens++
			continue
		}
		buf[k] = c
		k++
	}
	return tokens
}
