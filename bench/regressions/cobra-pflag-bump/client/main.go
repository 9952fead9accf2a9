package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A command whose own flag set tolerates unknown flags, set through
// pflag's field of the version cobra v1.9.1 requires.
func main() {
	extra := pflag.NewFlagSet("extra", pflag.ContinueOnError)
	extra.ParseErrorsWhitelist.UnknownFlags = true
	level := extra.Int("level", 0, "a level")
	ran := false
	cmd := &cobra.Command{
		Use: "client",
		Run: func(cmd *cobra.Command, args []string) {
			if err := extra.Parse(args); err != nil {
				fmt.Println("parse:", err)
				os.Exit(1)
			}
			ran = true
		},
		DisableFlagParsing: true,
	}
	cmd.SetArgs([]string{"--level=3", "--unknown"})
	if err := cmd.Execute(); err != nil {
		fmt.Println("execute:", err)
		os.Exit(1)
	}
	if !ran || *level != 3 {
		fmt.Printf("ran=%v level=%d, want true 3\n", ran, *level)
		os.Exit(1)
	}
	fmt.Println("level", *level)
}
