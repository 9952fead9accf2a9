package instrument

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// Plan is what one run of an instrumented program does besides running:
// which instances it skips, and where it records what it executed.
type Plan struct {
	// Record, when set, is a file the run writes its counts to: one
	// little-endian 32-bit word per element (index = id, word 0 unused),
	// kept current while the program runs, so that they are there however
	// it ends.
	Record string
	// Timeline, when set, is a file the run writes the order of its
	// first TimelineCap executions to (ReadTimeline).
	Timeline    string
	TimelineCap int
	// Skip are the instances to skip, per element id (in any order).
	Skip map[int][]uint32
	// Limit, when set, is the most instances of each element the run may
	// execute (index = id): a run that executes more has left the
	// reference run's trace (a skipped loop update that makes a loop run
	// longer) and ends at once with status 125. The control flow of a
	// partial run is then a part of the reference run's, as in STRIPE,
	// where the trace states it.
	Limit []uint32
}

// Encode writes the plan as the runtime reads it: instances as sorted
// ranges, so that skipping a long stretch costs one line.
func (p Plan) Encode() []byte {
	var b strings.Builder
	b.WriteString("wynot-trace-plan 1\n")
	if p.Record != "" {
		fmt.Fprintf(&b, "record %s\n", p.Record)
	}
	if p.Timeline != "" {
		fmt.Fprintf(&b, "timeline %s %d\n", p.Timeline, p.TimelineCap)
	}
	if p.Limit != nil {
		b.WriteString("limit")
		for _, n := range p.Limit[1:] {
			fmt.Fprintf(&b, " %d", n)
		}
		b.WriteByte('\n')
	}
	ids := make([]int, 0, len(p.Skip))
	for id, ks := range p.Skip {
		if len(ks) > 0 {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		ks := slices.Clone(p.Skip[id])
		slices.Sort(ks)
		fmt.Fprintf(&b, "skip %d", id)
		for i := 0; i < len(ks); {
			j := i
			for j+1 < len(ks) && ks[j+1] <= ks[j]+1 {
				j++
			}
			if ks[j] == ks[i] {
				fmt.Fprintf(&b, " %d", ks[i])
			} else {
				fmt.Fprintf(&b, " %d-%d", ks[i], ks[j])
			}
			i = j + 1
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// ReadCounts reads a Record file: the executions of each element, index
// = element id.
func ReadCounts(data []byte) []uint32 {
	out := make([]uint32, len(data)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(data[4*i:])
	}
	return out
}

// ReadTimeline reads a Timeline file: the ids of the elements in the
// order they executed, and whether that is all of them (false when the
// run executed more than the file holds).
func ReadTimeline(data []byte) (events []uint32, complete bool) {
	w := ReadCounts(data)
	if len(w) == 0 {
		return nil, true
	}
	n := int(w[0])
	if n > len(w)-1 {
		return w[1:], false
	}
	return w[1 : 1+n], true
}
