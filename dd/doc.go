// Package dd implements delta debugging: the algorithms that, given a set
// of changes (input elements, code changes, executed statements) and a
// test that says of any subset whether the failure occurs, find a
// 1-minimal failure-inducing subset (ddmin), a 1-minimal failure-inducing
// difference between a passing and a failing subset (dd), a 1-maximal
// passing subset (ddmax), or the failure-inducing changes between two
// versions with interference and preference (dd with interference and
// dd+).
//
// A configuration (Config) is a sorted set of change indices; a Tester
// tells the outcome of one (Pass, Fail or Unresolved). Run runs an
// Algorithm over n changes: it caches outcomes (the papers' monotony
// assumption makes a cached answer valid), tests independent
// configurations in parallel while keeping the sequential algorithm's
// results, and reports every step to an Observer, so that a run can be
// drawn as the papers draw their tables (Config.Diagram). A tester may
// test more than it was asked (a configuration completed with the changes
// it needs to build, ResolvingTester); the algorithms then credit the
// outcome to the configuration actually tested. The package does nothing
// but compute: it starts no process and touches no file.
//
// The algorithms follow, and the tests reproduce the worked examples of:
//
//   - TSE 2002: Andreas Zeller and Ralf Hildebrandt, "Simplifying and
//     Isolating Failure-Inducing Input", IEEE Transactions on Software
//     Engineering 28(2), 2002. ddmin (Fig. 5), n-minimality, the general
//     dd that isolates a failure-inducing difference (Fig. 15), ddmax
//     (footnote 15), the formal definitions and propositions.
//   - FSE 1999: Andreas Zeller, "Yesterday, my program worked. Today, it
//     does not. Why?", ESEC/FSE 1999. Failure-inducing code changes: dd
//     with interference (Tables 1–3), dd+ with preference and try-again
//     (Algorithm 2, Tables 4–6), grouping (§6), predicting outcomes from
//     the order of changes (Table 7), the failure-resolution loop (§8).
//   - AADEBUG 2000: Andreas Zeller, "Finding Failure Causes through
//     Automated Testing", Fourth International Workshop on Automated
//     Debugging, 2000. One algorithm for changes, input and executed
//     statements; syntactic grouping; trace reduction (STRIPE).
//   - The Debugging Book: Andreas Zeller, "Reducing Failure-Inducing
//     Inputs", a chapter of The Debugging Book (debuggingbook.org). One dd
//     with the modes ddmin, ddmax and dd; subsets tested only at
//     granularity 2 with a rotating start (the Book variant); the test logs
//     of its examples; reducing syntax trees by node transformations.
//   - Why Programs Fail: Andreas Zeller, Why Programs Fail, 2nd edition,
//     Morgan Kaufmann, 2009, appendix "Formal Definitions": the
//     definitions behind ddmin and dd, memory graphs, cause-effect chains
//     and cause transitions, isolated by cts (Transitions).
//
// Elsewhere in wynot, "TSE 2002", "FSE 1999", "AADEBUG 2000" and "the
// Debugging Book" refer to these texts, with their figures and sections.
package dd
