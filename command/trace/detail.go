package trace

// Detail is wynot trace's part of the summary (report.Summary.Detail).
type Detail struct {
	// Instrumented are the packages instrumented, the main module's
	// first; NotInstrumented says what else ran as it is besides the
	// standard library (packages that use cgo, or could not be
	// instrumented, and why).
	Instrumented    []string `json:"instrumented,omitempty"`
	NotInstrumented []string `json:"not_instrumented,omitempty"`
	Observe         string   `json:"observe,omitempty"` // what of the original run is reproduced
	// Pass is the run whose output is right that every test ran too
	// (--pass), when there was one.
	Pass *PassRun `json:"pass,omitempty"`
	// Slice is the critical slice: the statements with instances kept,
	// in source order.
	Slice []SliceLine `json:"slice,omitempty"`
	// Skipped is the plan of the reduced run: per element, the instances
	// it skips ("12: 1-4 7").
	Skipped   []string `json:"skipped,omitempty"`
	Unguarded int      `json:"unguarded,omitempty"` // statements that could not be guarded and always run
	BuildSecs float64  `json:"build_seconds,omitempty"`
	Hierarchy string   `json:"hierarchy,omitempty"` // "on" or "off"
	// Levels are the levels the search went through, coarse to fine.
	Levels []Level `json:"levels,omitempty"`
	// Renumbered says that the kept instances are numbered in the run
	// without the calls and loop iterations the levels above the
	// statement instances found unneeded (the k-th execution there),
	// not in the original run.
	Renumbered bool `json:"renumbered,omitempty"`
	// Shallow says that every instance of the slice is in the main
	// function: a run that skips all the rest of the program reproduces
	// the output (an empty or constant output), so the slice cannot show
	// what made it so.
	Shallow bool `json:"shallow,omitempty"`
}

// PassRun is the passing run of wynot trace --pass: its arguments and
// the file of its standard input, if any.
type PassRun struct {
	Args  []string `json:"args"`
	Stdin string   `json:"stdin,omitempty"`
}

// Level is one level of a hierarchical search: how many of its elements
// there were and were kept, in how many tests.
type Level struct {
	Name   string `json:"name"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	Tests  int    `json:"tests"`
	// Interrupted says the search of this level was cut short before
	// the statement instances: what it found is not in the slice.
	Interrupted bool `json:"interrupted,omitempty"`
}

// SliceLine is one statement of a critical slice.
type SliceLine struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
	Ran  int    `json:"ran"` // executions in the original run
	// Reached is how often the run with the slice's plan reached the
	// statement (executed or skipped it): fewer than Ran where the
	// calls or loop iterations that hold it are skipped; nil when that
	// run was not recorded.
	Reached *int  `json:"reached,omitempty"`
	Kept    []int `json:"kept"` // the instances kept (k-th execution; Renumbered)
	// Times are the kept instances' times in the reduced run (the
	// seed's line_time notation), when the run's timeline was recorded.
	Times []int `json:"times,omitempty"`
	// PassOnly are instances kept (--pass) that the failing run with the
	// slice's plan does not execute: the passing run's output needs
	// them.
	PassOnly []int `json:"pass_only,omitempty"`
}
