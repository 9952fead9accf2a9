package changes

import (
	"fmt"

	"github.com/wynot/wynot/report"
)

// Detail is wynot changes' part of the summary (report.Summary.Detail).
type Detail struct {
	Commits int    `json:"commits,omitempty"` // commits between the revisions (--git)
	Commit  string `json:"commit,omitempty"`  // the failure-inducing commit (--git)
	// SkippedCommits are the commits (--git) that were not candidates:
	// they change no file the test's build reads, or none of --paths.
	SkippedCommits []SkippedCommit `json:"skipped_commits,omitempty"`
	Hunks          []string        `json:"hunks,omitempty"`       // the failure-inducing changes, briefly
	Resolutions    int             `json:"resolutions,omitempty"` // configurations retried with changes added by the resolution loop
	Resolved       int             `json:"resolved,omitempty"`    // of those, how many then gave a resolved outcome
	Completed      int             `json:"completed,omitempty"`   // configurations tested with the changes they need (from the source) added
	Complement     string          `json:"complement,omitempty"`  // the outcome of the new version without the result
	Needed         int             `json:"needed,omitempty"`      // changes of the result that resolution added so that the others build
	OtherCause     []string        `json:"other_cause,omitempty"` // changes disjoint from the result that also made the old version fail
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
