// Package all is the table of wynot's commands: the one list that the
// binary (cmd/wynot) and the commands' transcript tests read.
package all

import (
	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/command/chain"
	"github.com/wynot/wynot/command/changes"
	"github.com/wynot/wynot/command/fuzz"
	"github.com/wynot/wynot/command/isolate"
	"github.com/wynot/wynot/command/reduce"
	"github.com/wynot/wynot/command/trace"
)

// Commands are wynot's commands, in the order of the manual.
var Commands = []*command.Command{reduce.Command, isolate.Isolate, isolate.Maximize, changes.Command, fuzz.Command, trace.Command, chain.Command}

// Lookup returns the command called name, or nil.
func Lookup(name string) *command.Command {
	for _, c := range Commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}
