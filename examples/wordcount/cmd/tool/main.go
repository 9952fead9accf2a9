// Command tool counts words.
package main

import (
	"os"

	"example.com/tool/report"
	"example.com/tool/util"
)

func main() {
	text := ""
	for _, p := range os.Args[1:] {
		text += util.Read(p)
	}
	t := report.Table(util.Count(text))
	t.Print(os.Stdout)
	report.Summary(os.Stdout, len(t), len(text), t.Total())
}
