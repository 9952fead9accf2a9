package changes

import (
	"fmt"

	"github.com/wynot/wynot/report"
)

// Detail is wynot changes' part of the summary (report.Summary.Detail).
type Detail struct {
	Commits int    `json:"commits,omitempty"` // commits between the revisions (--git)
	Commit  string `json:"commit,omitempty"`  // the failure-inducing commit (--git), its short hash and subject
	// Revisions are GOOD and BAD (--git), as given and as resolved.
	Revisions *Revisions `json:"revisions,omitempty"`
	// Culprit is the failure-inducing commit (--git) in full, when the
	// search told it apart. When it could not tell it from the commits
	// before it (Untested), Culprit is nil and Culprits lists all of
	// them, oldest first: the failure came with one of them; Commit is
	// then the newest, whose tree the changes were searched to.
	Culprit  *GitCommit   `json:"culprit,omitempty"`
	Culprits []*GitCommit `json:"culprits,omitempty"`
	// Untested are the commits just before the culprit (--git) whose
	// revisions could not be tested (unresolved): the failure came with
	// one of them or with the culprit, as git bisect skip leaves it.
	Untested []string `json:"untested,omitempty"`
	// SkippedCommits are the commits (--git) that were not candidates:
	// they change no file the test's build reads, or none of --paths.
	SkippedCommits []SkippedCommit `json:"skipped_commits,omitempty"`
	// Bisection is the search over the commits (--git): the line from
	// GOOD to BAD, then the merged branch of each failure-inducing
	// merge searched, each with the revisions tested in order.
	Bisection   []Bisection `json:"bisection,omitempty"`
	Hunks       []string    `json:"hunks,omitempty"`       // the failure-inducing changes, briefly
	Resolutions int         `json:"resolutions,omitempty"` // configurations retried with changes added by the resolution loop
	Resolved    int         `json:"resolved,omitempty"`    // of those, how many then gave a resolved outcome
	Completed   int         `json:"completed,omitempty"`   // configurations tested with the changes they need (from the source) added
	Complement  string      `json:"complement,omitempty"`  // the outcome of the new version without the result
	Needed      int         `json:"needed,omitempty"`      // changes of the result that resolution added so that the others build
	OtherCause  []string    `json:"other_cause,omitempty"` // changes disjoint from the result that also made the old version fail
	// The check of the result at the granularity shown, each of its
	// changes removed alone and the rest tested as it is: how many such
	// removals passed, how many were unresolved (did not build), and how
	// many changes the check took out because without each the rest
	// still failed.
	RemovalsPassed     int `json:"removals_passed,omitempty"`
	RemovalsUnresolved int `json:"removals_unresolved,omitempty"`
	// RemovalsPredicted counts the unresolved removals that were not
	// built: their Go code does not type-check.
	RemovalsPredicted int `json:"removals_predicted,omitempty"`
	RemovedByCheck    int `json:"removed_by_check,omitempty"`
	// Verdict says in sentences what was verified of the result; the
	// terminal shows the same sentences.
	Verdict []string `json:"verdict,omitempty"`
}

// Rows are the lines the detail adds to the HTML report's statistics.
func (d Detail) Rows() []report.Row {
	if d.Resolutions == 0 {
		return nil
	}
	return []report.Row{{Name: "resolution attempts", Value: fmt.Sprintf("%d (%d resolved)", d.Resolutions, d.Resolved)}}
}

// SkippedCommit is a commit that wynot changes --git did not take for a
// candidate, and why: the kinds of files it changes, none of which the
// test's build reads.
type SkippedCommit struct {
	Commit string `json:"commit"`
	Why    string `json:"why"`
}

// Revisions are the revisions of wynot changes --git.
type Revisions struct {
	Good Revision `json:"good"`
	Bad  Revision `json:"bad"`
	// MergeBase is where the search started when GOOD is not an
	// ancestor of BAD: their merge base (full hash), which passes.
	MergeBase string `json:"merge_base,omitempty"`
}

// Revision is a revision as the command line names it and the commit it
// resolves to.
type Revision struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
}

// GitCommit is a commit as git log shows it: full hash, subject, author
// ("Name <email>") and author date (strict ISO 8601).
type GitCommit struct {
	Hash    string `json:"hash"`
	Subject string `json:"subject"`
	Author  string `json:"author"`
	Date    string `json:"date"`
}

// Bisection is one binary search over a line of commits (wynot changes
// --git): from a revision that passes (From, excluded) to its last
// commit, which fails (To).
type Bisection struct {
	// From and To are the line's ends as named: GOOD or the merge base,
	// and BAD or the merged branch's head.
	From string `json:"from"`
	To   string `json:"to"`
	// Commits are the commits of the line, Candidates those that may
	// change the outcome (the others are in Detail.SkippedCommits).
	Commits    int `json:"commits"`
	Candidates int `json:"candidates"`
	// Branch says that the line is the merged branch of a
	// failure-inducing merge: its ends were presumed (the head failing,
	// the merge base passing) until tested; else both were tested before
	// the search.
	Branch bool         `json:"branch,omitempty"`
	Steps  []BisectStep `json:"steps,omitempty"`
	// Found is the commit the search named ("hash subject"), or Note
	// says why it named none.
	Found string `json:"found,omitempty"`
	Note  string `json:"note,omitempty"`
}

// BisectStep is a revision a Bisection tested and what it left.
type BisectStep struct {
	Revision string `json:"revision"`          // the commit tested (full hash)
	Subject  string `json:"subject,omitempty"` // its subject ("" for a merge base)
	// At is the revision's place on the line: it holds the first At of
	// the line's commits (0: the line's start).
	At      int    `json:"at"`
	Outcome string `json:"outcome"`          // PASS, FAIL or UNRESOLVED
	Detail  string `json:"detail,omitempty"` // the test's detail ("exit status 125 (skip)")
	Cached  bool   `json:"cached,omitempty"` // the outcome came from the cache
	// Left are the commits the failure-inducing one was still among
	// after the test, Candidates how many of them may change the
	// outcome, and First and Last the first and the last of them
	// ("hash subject").
	Left       int    `json:"left"`
	Candidates int    `json:"candidates"`
	First      string `json:"first,omitempty"`
	Last       string `json:"last,omitempty"`
}
