// Command reapid serves wynot's test remote execution service on a
// port, for trying wynot --exec reapi:// without a Buildbarn or
// BuildBuddy at hand: it keeps blobs and action results in memory and
// runs actions as local processes. It is a test service, not a build
// farm: no authentication, no persistence, one machine.
//
//	go run ./internal/reapitest/reapid -listen 127.0.0.1:8980
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/wynot/wynot/internal/reapitest"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:8980", "address to listen on")
	flag.Parse()
	s, err := reapitest.Listen(*listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reapid:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "reapid: serving the Remote Execution API on %s (Ctrl-C stops it)\n", s.Addr)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	<-stop
	s.Stop()
	fmt.Fprintf(os.Stderr, "reapid: %d actions run, %d answered from the action cache\n", s.Executed, s.Hits)
}
