package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"

	"github.com/spf13/pflag"
)

const want = "stdout: \"unknown flag: --bogus\\n\"\nstderr: \"unknown flag: --bogus\\nUsage of tool:\\n  -n, --name string   who to greet (default \\\"world\\\")\\n\"\nexit status 2\n"

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		fs := pflag.NewFlagSet("tool", pflag.ExitOnError)
		fs.StringP("name", "n", "world", "who to greet")
		fs.Parse(os.Args[2:])
		return
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(os.Args[0], "child", "--bogus")
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	got := fmt.Sprintf("stdout: %q\nstderr: %q\n%v\n", out.String(), errb.String(), err)
	fmt.Print(got)
	if got != want {
		fmt.Println("the error output of a bad flag changed")
		os.Exit(1)
	}
}
