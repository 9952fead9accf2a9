package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/wynot/wynot/command"
	"github.com/wynot/wynot/command/all"
	"github.com/wynot/wynot/command/reduce"
)

//go:embed doc.go
var docSource string

func main() { os.Exit(wynot()) }

// wynot is the program: it runs the command of os.Args and returns the
// exit status (the tests' scripts run it as their wynot command).
func wynot() int {
	// A test agent in a Slurm job step (--slurm-steps slot) serves
	// and exits.
	command.AgentMain(os.Args[1:])
	// What a test detaches (a daemon, a setsid process) ends with the
	// test.
	command.AdoptOrphans()
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	command.EndOrphans()
	return code
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return command.ExitInput
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			c := all.Lookup(args[1])
			if c == nil && args[1] == "clusters" {
				fmt.Fprint(stdout, section("Clusters"))
				return command.ExitOK
			}
			if c == nil {
				fmt.Fprintf(stderr, "wynot: no help for %q: not a command\n\n%s", args[1], usage())
				return command.ExitInput
			}
			fmt.Fprint(stdout, section(c.Section))
			return command.ExitOK
		}
		fmt.Fprint(stdout, manual())
		return command.ExitOK
	case "version", "--version":
		fmt.Fprintln(stdout, "wynot", version())
		fmt.Fprintln(stdout, reduce.Languages())
		return command.ExitOK
	}
	c := all.Lookup(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "wynot: unknown command %q\n\n%s", args[0], usage())
		return command.ExitInput
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first interrupt, a second one ends wynot at once; but
		// not within a second of the first, since a signal sent to a
		// process group (as timeout(1) does) often arrives twice.
		<-ctx.Done()
		time.Sleep(time.Second)
		stop()
	}()
	return c.Main(ctx, args[1:], command.Env{Stdout: stdout, Stderr: stderr, Help: section})
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// manual is the package documentation of doc.go, as plain text.
func manual() string {
	var b strings.Builder
	for _, l := range docLines() {
		b.WriteString(strings.TrimPrefix(l, "# ") + "\n")
	}
	return b.String()
}

// docLines are the lines of the comment in doc.go, code indented by four
// spaces, headings still marked "# ".
func docLines() []string {
	var out []string
	in := false
	for _, l := range strings.Split(docSource, "\n") {
		switch {
		case strings.HasPrefix(l, "/*"):
			in = true
			continue
		case strings.HasPrefix(l, "*/"):
			return out
		}
		if in {
			if strings.HasPrefix(l, "\t") {
				l = "    " + l[1:]
			}
			out = append(out, l)
		}
	}
	return out
}

// usage is the manual up to the first section.
func usage() string {
	var b strings.Builder
	for _, l := range docLines() {
		if strings.HasPrefix(l, "# ") {
			break
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// section is the part of the manual under the heading "# name", up to the
// next heading.
func section(name string) string {
	var b strings.Builder
	in := false
	for _, l := range docLines() {
		if strings.HasPrefix(l, "# ") {
			if in {
				break
			}
			in = l == "# "+name
		}
		if in {
			b.WriteString(strings.TrimPrefix(l, "# ") + "\n")
		}
	}
	if !in {
		return manual()
	}
	return b.String()
}
