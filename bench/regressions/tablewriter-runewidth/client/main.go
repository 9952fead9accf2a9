package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/olekukonko/tablewriter"
)

const want = `+------+----------+
| NAME |   CITY   |
+------+----------+
| ★★★  | Berlin ★ |
| Bob  | Berlin   |
+------+----------+
`

func main() {
	var b bytes.Buffer
	t := tablewriter.NewWriter(&b)
	t.SetHeader([]string{"Name", "City"})
	t.Append([]string{"★★★", "Berlin ★"})
	t.Append([]string{"Bob", "Berlin"})
	t.Render()
	fmt.Print(b.String())
	if b.String() != want {
		fmt.Println("table layout changed")
		os.Exit(1)
	}
}
