package chain

// Detail is wynot chain's part of the summary (report.Summary.Detail).
type Detail struct {
	// Probed are the packages given probes, the main module's first;
	// NotProbed says what else ran as it is besides the standard library
	// (packages that use cgo, or could not be instrumented, and why).
	Probed    []string `json:"probed,omitempty"`
	NotProbed []string `json:"not_probed,omitempty"`
	// Chain is the cause-effect chain: the states examined, in the
	// failing run's order, each with its relevant deltas.
	Chain []Link `json:"chain,omitempty"`
	// Transitions are the cause transitions found: where the variables
	// of the relevant deltas change from one state to the next.
	Transitions []Transition `json:"transitions,omitempty"`
	// Suggested is the one statement wynot suggests as the defect's
	// location, and why (Suggestion).
	Suggested   *Suggestion `json:"suggested,omitempty"`
	MaxVertices int         `json:"max_vertices,omitempty"`
	// Captures counts the runs that captured states (they are among the
	// tests).
	Captures int `json:"captures,omitempty"`
}

// Link is one state of a cause-effect chain: a moment of the failing
// run and what of its state, transplanted into the passing run, makes
// that run fail.
type Link struct {
	Step  uint64 `json:"step"` // the failing run's step (probe passed), from 1
	File  string `json:"file"`
	Line  int    `json:"line"`
	Func  string `json:"func"`
	Stack string `json:"stack,omitempty"`
	// Matched says that the passing run has a matching state (the same
	// backtrace); the sizes of both graphs, the deltas between them and
	// the tests of the search follow.
	Matched      bool    `json:"matched"`
	PassVertices int     `json:"pass_vertices,omitempty"`
	FailVertices int     `json:"fail_vertices,omitempty"`
	Cut          bool    `json:"cut,omitempty"` // a graph stopped at --max-vertices
	Deltas       int     `json:"deltas"`
	Tests        int     `json:"tests"`
	Relevant     []Delta `json:"relevant,omitempty"`
	// Differences are all the deltas in words (the first 100).
	Differences []string `json:"differences,omitempty"`
	// Note says why there are no relevant deltas (no matching state,
	// the whole difference does not reproduce the failure, ...).
	Note string `json:"note,omitempty"`
	// Untransplantable are the deltas the passing run could not take
	// (in words, with why): set aside before the search.
	Untransplantable []string `json:"untransplantable,omitempty"`
}

// Delta is one state difference.
type Delta struct {
	Kind string `json:"kind"` // change, add, delete, repoint
	Var  string `json:"var"`  // the variable it affects
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
	Text string `json:"text"` // in words
	// Aliases are the other names of the failing run's vertex (the same
	// memory reached another way).
	Aliases []string `json:"aliases,omitempty"`
}

// Transition is a cause transition: between two steps of the failing
// run, the variables that cause the failure change.
type Transition struct {
	FromStep uint64 `json:"from_step"`
	ToStep   uint64 `json:"to_step"`
	// Where is the statement of the first step and the one the run goes
	// on to ("main.go:45 → main.go:46"); Func the function of the first.
	Where string `json:"where"`
	Func  string `json:"func"`
	// Before and After are the variables of the relevant deltas at the
	// two steps.
	Before []string `json:"before"`
	After  []string `json:"after"`
	// Kind says how the cause moved: "statement" (within a function),
	// "call", "return", "diverges" (one of the states has no matching
	// state in the passing run: the runs took different paths) or
	// "hidden" (at one of the states the whole captured difference does
	// not make the passing run fail: the cause is where the capture does
	// not see, such as a caller's local variables), or "crash" (from the last
	// state with relevant deltas to the statement at which the failing
	// run crashed), or "unseen" (the failing run's state at one of them
	// could not be captured again: its steps differ from run to run, or
	// the capture timed out).
	Kind string `json:"kind"`
	// Overwritten are the variables of both states (the same memory)
	// whose value in the failing run changed between them: the statement
	// wrote into a variable that carried the cause.
	Overwritten []string `json:"overwritten,omitempty"`
	// Parting, when set, is where the two runs' control flow parted on
	// the way to this transition, in its function, while the cause stayed
	// where it was: from matching states, the branch after which they go
	// on to different statements.
	Parting *Parting `json:"parting,omitempty"`
	// Direct says that the two steps are consecutive; Suggested marks
	// the transition wynot suggests as the defect's location.
	Direct    bool `json:"direct"`
	Suggested bool `json:"suggested,omitempty"`
	// passOnly: on the way, the passing run changed a variable carrying
	// the cause that the failing run left as it was (passOnly).
	passOnly bool
	// offPath: in the state the transition ends in, the cause led the
	// failing run on to a statement the passing run never goes to from
	// there (offPath).
	offPath *Parting
}

// Parting is a statement after which the failing and the passing run,
// from matching states, go on to different statements.
type Parting struct {
	Step  uint64 `json:"step"`  // the failing run's step at the branch
	Where string `json:"where"` // the branch, file:line
	Fail  string `json:"fail"`  // where the failing run goes on to
	Pass  string `json:"pass"`  // where the passing run goes on to
}

// Suggestion is the statement suggested as the defect's location: the
// first statement of the suggested transition, the branch where the runs
// parted on the way to it, or the statement at which the failing run
// crashed.
type Suggestion struct {
	Where string `json:"where"` // file:line
	Func  string `json:"func"`
	Step  uint64 `json:"step"`
	Why   string `json:"why"`
}
