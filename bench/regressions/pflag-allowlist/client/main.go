package main

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"
)

func main() {
	fs := pflag.NewFlagSet("wrap", pflag.ContinueOnError)
	verbose := fs.BoolP("verbose", "v", false, "verbose")
	fs.ParseErrorsWhitelist.UnknownFlags = true
	if err := fs.Parse([]string{"-v", "--passthrough=1", "file"}); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println(*verbose, fs.Args())
}
