// Printer lays out an HTML page for printing and crashes on any SELECT
// element (Mozilla bug 24735, TSE 2002 §4.2): its layout of a select box
// writes to a table it never made. It reads the file named by its
// argument, or standard input.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

type box struct {
	tag    string
	attrs  map[string]string
	widths map[string]int
}

func main() {
	var data []byte
	var err error
	if len(os.Args) > 1 {
		data, err = os.ReadFile(os.Args[1])
	} else {
		data, err = io.ReadAll(os.Stdin)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lines := layout(data)
	fmt.Printf("%d lines laid out\n", lines)
}

// layout walks the tags of the page and lays out each box.
func layout(page []byte) int {
	lines := 0
	for len(page) > 0 {
		i := bytes.IndexByte(page, '<')
		if i < 0 {
			break
		}
		j := bytes.IndexByte(page[i:], '>')
		if j < 0 {
			break
		}
		tag := string(page[i+1 : i+j])
		page = page[i+j+1:]
		fields := strings.Fields(tag)
		if len(fields) == 0 {
			continue
		}
		b := &box{tag: strings.ToUpper(fields[0]), attrs: map[string]string{}}
		for _, f := range fields[1:] {
			k, v, _ := strings.Cut(f, "=")
			b.attrs[strings.ToUpper(k)] = strings.Trim(v, `"'`)
		}
		if b.tag == "SELECT" {
			layoutSelect(b)
		}
		lines++
	}
	return lines
}

func layoutSelect(b *box) {
	size := 1
	fmt.Sscan(b.attrs["SIZE"], &size)
	b.widths["option"] = size * 8 // b.widths was never made
}
