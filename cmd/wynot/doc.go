/*
Wynot finds the causes of failures automatically, by delta debugging
("worked yesterday, not today"). Give it a failing input and a test that
shows the failure; it runs the test on parts of the input, many times,
and returns the part that matters.

Usage:

	wynot reduce   [flags] FILE... -- CMD [ARG...]
	wynot reduce   [flags] --test SCRIPT FILE...
	wynot reduce   [flags] --argv -- CMD ARG...
	wynot isolate  [flags] PASSING FAILING -- CMD [ARG...]
	wynot isolate  [flags] --argv PASSING_ARGS FAILING_ARGS -- CMD
	wynot maximize [flags] FILE -- CMD [ARG...]
	wynot changes  [flags] OLD_DIR NEW_DIR -- CMD [ARG...]
	wynot changes  [flags] --git GOOD BAD -- CMD [ARG...]
	wynot fuzz     [flags] PACKAGE_DIR FuzzXxx [ENTRY]
	wynot trace    [flags] PKGDIR [-- ARG...]
	wynot trace    [flags] --gdb BINARY [-- ARG...]
	wynot chain    [flags] --pass ARGS --fail ARGS PKGDIR
	wynot chain    [flags] --gdb --pass ARGS --fail ARGS BINARY
	wynot help [COMMAND | clusters]
	wynot version

reduce makes a failing input as small as possible; isolate finds the
smallest difference between a passing and a failing input; maximize finds
the largest part of a failing input that still passes; changes finds the
code changes that make a new version of a program fail where the old one
passed; fuzz reduces a crashing entry of a Go fuzz corpus; trace finds
which executed statements of a run matter for its output; chain finds
which part of a failing run's state makes the difference to a passing
run, and where along the run that cause moves to other variables.

Run "wynot COMMAND --help" for the flags of a command, and "wynot help
clusters" for running the tests on a Slurm cluster or a remote execution
service.

Flags may come anywhere before the "--" that starts the test command.
An input whose name starts with "-" goes after a "--" of its own, before
the command's: "wynot reduce -- -n.txt -- ./test {}" (or name it
./-n.txt). The first "--" then ends wynot's flags, every word up to the
second is an input, whatever it starts with, and the second starts the
command. Two "--" read so when no input comes before the first, or when
the word after the first starts with "-" (no command does); otherwise
the first starts the command, as with one "--", and a "--" in the
command is the command's own: "wynot reduce main.rs -- cargo run -- {}",
"wynot reduce --argv -- cargo run -- x".

Messages write a file's name as it is, unless it holds a newline,
another control character or bytes that are not UTF-8, or begins or
ends with a space: then it is quoted as in Go ("a\nb.txt"), so that
every message stays one line and names the file exactly.

# Reduce

wynot reduce simplifies failing input files to a 1-minimal failing input:
one in which removing any single character (or line, or token, with
--split; or making any single syntax tree transformation, for source
code) makes the failure go away. It uses ddmin (Zeller and Hildebrandt,
"Simplifying and Isolating Failure-Inducing Input", IEEE TSE 2002).

Past 1-minimality, where it is affordable: on a 1-minimal result of at
most 32 bytes wynot tests the removal of every run of 2 to 8 consecutive
pieces of each pass (characters, tokens, lines, syntax tree
transformations) and of every pair and every triple of its finest pieces
(characters): runs of characters first, then pairs, runs of the coarser
pieces, triples, within a budget of half as many tests as the search ran
(at least 50; --n-minimal N sets it, for a result of any size, and 0
turns the checks off). A removal that still fails is taken and the
search runs again from the smaller result. The summary says what was
established: "3-minimal: no two or three of its characters, and no run
of 2 to 8 consecutive tokens or characters, can be removed at once";
--json says it as n_minimal, spans and spans_of. In a small text (16
bytes at most) each letter or digit is also tried as 0, else as 1, A or
a, the smallest characters in shortlex order, so that two reductions of
one failure end alike (0={ rather than s={); in a text of 256 bytes at
most, each name is tried as another name of the text that sorts before
it, or as a, at every occurrence at once (two variables merged, one
declaration goes).

	wynot reduce [flags] FILE... -- CMD [ARG...]
	wynot reduce [flags] --test SCRIPT FILE...
	wynot reduce [flags] DIR -- CMD [ARG...]
	wynot reduce [flags] --argv -- CMD ARG...

The test is either a command after "--" or a script. A command is run
directly, never through a shell (write sh -c '...' for one). Every "{}"
in its arguments is replaced by the candidate's path, and with one FILE
and no "{}" the candidate comes on standard input; such a command runs
where wynot was started, as your shell would run it, so "go run
./cmd/x", "make check" or "./scripts/t.sh" work as typed. A command that
names the input by its file name (gcc -c bug.c), one that tests several
files, and a --test script run instead in a private directory that
holds the candidate files under their own names. A test that writes
into the directory it runs in (seen on the original's runs) runs its
tests one at a time there, so that no two write at once; files that only
the candidates' tests changed there are named at the end (but for the
result and FILE.orig).

--sandbox confines each test (Linux, with Debian's bubblewrap): it can
write only its private directory and the directories given with
--sandbox-write (say $(go env GOCACHE), to keep Go's build cache warm),
sees an empty /tmp and an empty home directory (the directory it runs in
and the programs it names stay readable), and reaches no network
(--sandbox-net leaves it). Where tests cannot be confined (no
bubblewrap, no namespaces to make), wynot says so and runs them
unconfined. It is off by default: tests commonly write caches into the
home directory, which the sandbox hides; turn it on for a test you do
not trust to stay in its place.

How wynot tells the failure: it first runs the command twice on the
original input and records how it fails, and says so before it searches.
That is how the run ended (exit status or signal) and what its output
says of the failure:

  - the output of the tools it knows: go test's failing tests and
    subtests, each with its first line of output (a package that does
    not build, "[build failed]" for a vet check or a compile error,
    "[setup failed]", is not a test failing; a line of go test's or a
    Go panic that output without a final newline ran into is read as
    its own line); go build, go run and go
    vet (a compile error, a vet finding, "vet: ..." for code that does
    not type-check); the go command's own complaints ("go: go.mod file
    not found", no such package); cargo (a compile error, the failing
    tests and their panics); pytest and Python's unittest (the failing
    tests; a collection or import error is code that does not build);
    make (the targets whose recipes failed); a C, C++, Java or
    TypeScript compiler's error;
  - a crash report: a Go panic or fatal error with the top stack
    frames, a Rust panic, a sanitizer report, an assertion, an internal
    compiler error, a Python exception;
  - otherwise the lines of the output that state a failure (FAIL,
    error, fatal, assertion, exception, abort), at most five.

A candidate fails when it fails the same way: it ends the same way,
gets as far (a run that does not build is never the same failure as one
whose tests ran and failed, though go test exits 1 either way), and the
same tests or targets fail with the same message (each failing Go
test's: one of them failing otherwise is another failure). One that exits with status 0
passes; anything else (another failure, a build that fails, a timeout)
is unresolved and treated as not failing. An original that fails before
anything is built or tested (the tool cannot start: no go.mod, no such
package, no such make target) is refused with its output: that is how
the command fails where it runs, not a failure of the program. When the
output names no failure at all, the exit status is all that tells it:
wynot shows the end of the original's output, and a result whose output
ends otherwise is reported with a caution first, not certified (exit
status 3). --precision says how closely messages are compared:

	exit     the same exit status or signal (and how far the run got,
	         and which tests failed), no message
	message  also the same failure message, with numbers, addresses and
	         paths ignored (the default): "index out of range [19] with
	         length 11" matches "index out of range [2] with length 1"
	stack    also the same top stack frames
	exact    message and frames compared literally

--fail-on REGEX states the failure instead: output matching REGEX fails
(standard error or standard output; ^ and $ match at the start and end
of every line, as in grep). It only narrows the failure: a run that matches but gets less far than
the original (it does not build, where the original's tests ran) is
unresolved, so that --fail-on FAIL does not take go test's "FAIL pkg
[build failed]" for a failing test.

Before the search, the test runs on the empty input: when that fails
the same way too, twice, the test cannot tell inputs apart (it always
fails, it cannot work where it runs, or the failure needs no input), and
wynot stops with the original's output and exit status 4 instead of
answering with an empty result.

A script (--test SCRIPT) is run in the candidate's directory, as with
C-Reduce and C-Vise, so their test scripts work unchanged: exit status 0
means the failure is reproduced, 125 that the test cannot tell, anything
else that it passed. --convention bisect reads the status as git bisect
run does instead (0 pass, 125 skip, 1-127 fail, 128 and above abort).

With --split auto (the default) the input is reduced in passes from
coarse to fine until none makes it smaller. Text is cut into lines, then
balanced bracket groups ( ) [ ] { } at each depth (whole groups, then
their contents), then tokens, then characters (in nested text, where
bracket groups spanning lines hold most of it, the whole groups come
before the lines, and after the lines each group is also tried
unwrapped: its brackets and the header before them removed, its
contents kept; in indented text, YAML say, each top-level line with the
lines indented under it goes whole before the lines); then words,
numbers, strings and bracket groups are replaced by smaller ones (a word
shortened at every occurrence, a number of two digits or more by 0 or 1,
a string emptied, a bracket group by its first element, a call f(x, y)
by its first argument). Source code in
a known language (by its file name's extension: .go; .c and .h, .cc,
.cpp, .cxx, .hh, .hpp, .rs, .java, .ts, .tsx, .js, .py, .json, .sql) is
reduced as a syntax tree first, level by level from the
top, and then by tokens and characters, where only candidates that still
parse are tested. A single input whose result is 64 bytes or less is
then tested with each single character removed that leaves it not
parsing (a compiler that crashes before it misses a closing brace): if
one still fails, the input is reduced as text from there, every
candidate tested (--n-minimal 0 turns this off with the other checks
past 1-minimality). HTML is reduced as text (browsers read any text)
unless --split tree:html asks for its tree. Several FILEs are reduced in
turns until none shrinks.

--split go reduces Go source through go/ast, with these transformations,
each of which ddmin makes or not: a declaration, statement, comment,
struct field, interface method, list element or switch clause goes; an if
becomes its then or its else block; a loop becomes its body; a block its
statements; a function gets an empty body returning zero values; an
unused parameter goes together with the argument at every call; a boolean
expression becomes false, true or one operand; an expression becomes the
zero value of its type or one operand (a call one of its arguments); a
name becomes a shorter one, renamed everywhere. Imports and local
variables that a transformation leaves unused go with it. Every candidate
is printed by go/format; one that does not parse is predicted unresolved
without a test, and so is one that has type errors the original did not
have (go/types; imports from the standard library only), once the first
three such candidates were run and did not fail; when one of them fails,
the test does not need code that type-checks (a grep, a formatter), and
wynot runs such candidates too (--typecheck=false: from the start). Once
the result is 1-minimal and at most 1024 bytes, some of the candidates
one change away that were predicted so are run as well (a quarter of
the search's tests, 16 to 64): a compiler that reports errors in order
of position may report the failure first on the small result where it
did not on the original.
The result is gofmt-clean. --split go stops there; auto goes on to single
tokens and characters (candidates printed by go/format), which costs more
tests.

--split tree:LANG reduces by a tree-sitter grammar (c, cpp, rust, java,
typescript, tsx, javascript, python, html, json, sql, and go for Go
source that go/parser does not take): each node goes (a statement with
its semicolon in sql), or is replaced by a smaller node of the same kind
inside it; in the C-like languages (all but python, html, json and sql)
an expression may also become one of its operands, a statement the
statement or block inside it, a function's body an empty block, and a
function's parameter goes together with the argument at every call of
the function by name. An SQL candidate that uses a table or view the
script created and the candidate no longer creates (in a FROM clause, or
as what INSERT, UPDATE, DELETE, ALTER TABLE or CREATE INDEX acts on) is
predicted unresolved without a test, as Go candidates with new type
errors are: once three such candidates were run and did not fail
(--typecheck=false: run them all). Built-in tables, tables the script
never creates, and names of common table expressions and aliases are
never taken for missing. The tree-sitter grammars are C code that cgo
builds: a wynot built without cgo (CGO_ENABLED=0) has none of them; it
reduces files in their languages as text, says so, and refuses
--split tree:LANG. wynot version lists the languages a wynot has.
--split text is auto without syntax trees; --split lines, tokens,
brackets, runes (characters) or bytes uses one kind of piece only.

--with FILE copies FILE unchanged into every test's directory, beside the
candidate: the test file of a package, a header, a main.go.

A DIR is reduced as a whole tree. Each test runs in a private copy of
the candidate tree ("{}" names it; it is also the test's working
directory, so "go vet ./..." or "make" work as they are), brought from
one candidate to the next by writing only the files that differ; the
same tree is never tested twice. Whatever a test writes into its tree
is undone before the next test (see "What a test may do", under
changes). First whole files and directories
are removed, the entries at the top first, then those one level down,
and so on (hierarchical delta debugging over the directory tree); then
each remaining file is reduced by its own language as above; rounds
repeat until nothing shrinks. Binary and empty files and symbolic links
are only ever removed whole; a link is never followed (one that points
out of the tree is said), and .git, .hg and .svn stay out of the tests.
The original tree is kept in DIR.orig (or DIR.orig.N), written once the
original's checks pass; DIR is changed in place at every improvement,
so an interrupted run leaves the smallest failing tree found. A change
of several files at once is first recorded in DIR.wynot-pending: if
wynot is killed while writing it, the next run on DIR finishes it
first; and a run on a DIR that an interrupted reduction left goes on
with DIR.orig as the original. With -o
OUT, DIR is left alone and the result tree goes to OUT, which must be
new or empty. A DIR that is the current directory, or holds it, needs
-o. The copies must fit: wynot checks the free space where they go
(WYNOT_TMPDIR, else /dev/shm or the system's temporary directory)
before it starts.

In a tree, the Go files of one directory (a package, its tests) are
reduced together, as one text: a name is shortened at its declaration
and at every use in the package's files, a parameter is removed with
the argument at every call in them, and a declaration can go together
with every statement that uses it, wherever those are. The package is
type-checked as a whole with its in-package tests, the tree's packages
it imports (found through go.mod, read from source) and the tree's
packages that import it: removing a declaration another file uses is
predicted, not run; names other packages of the tree use are kept.
Packages from outside the tree (the modules' requirements, the standard
library) are typed from the export data the go command gives for them
(go list -export, run once in the original tree; without it they stay
untyped, as said). A candidate go.mod that does not parse, renames the
module while the tree imports its packages, no longer requires a module
the Go files import (unless GOFLAGS has -mod=mod), or drops a
replacement still needed, breaks the module and is predicted the same
way; so does a go.sum with a malformed line or without a checksum of a
required module the Go files import. A module's go.mod, go.sum and
vendor/modules.txt are also reduced together: a requirement goes from
go.mod with its checksums and its vendor block in one candidate (alone,
it would leave the vendor directory inconsistent, which the go command
refuses). Whether type errors predict the outcome is learned per package, since
"go vet ./..." still reports a failure in one package when another does
not build.

The original of FILE is kept in FILE.orig, written once the original's
checks pass (and removed again if nothing smaller fails); FILE is
replaced, atomically, by every smaller failing input found, so a run
that stops for any reason (Ctrl-C, exit status 130, even SIGKILL) leaves
the best result so far and a valid file. Interrupted before the search
starts (while it parses and type-checks the inputs, or the original
runs), wynot ends at once, says what it was doing and that nothing was
changed: no input is written and no FILE.orig made. An
existing FILE.orig is kept as the original only when it is one of an
interrupted reduction of this very file (wynot remembers what it wrote,
in the user's cache directory); otherwise the original goes to the first
free FILE.orig.N, and the closing line names it. With -o PATH, the
inputs are left alone and the result goes to PATH (a directory for
several files). An input that is not a regular file (a symbolic link, a
pipe, anything under /dev or /proc) is never replaced or written next
to; its result goes to -o or to NAME.reduced (or NAME.reduced.N) in the
current directory.

One run at a time changes an input. Before it reads anything, a run
locks what it uses: an input it reduces in place (a FILE; a DIR and
everything in it) and -o, which it writes; an input whose result goes
to -o, which it only reads. Any number of runs may read an input; a run
that would change what a live run uses, or read what one changes,
stops at once (exit status 1) with a message that names that run, its
PID, when it started and its command line ("in.txt is in use by another
run of wynot (PID 4242, started 2025-06-01 14:02:11: wynot reduce in.txt
-- ./t.sh), which reduces in.txt in place"): wait for it to end, or stop
it. So two runs with -o to different outputs go on side by side, and
two runs in place on one file, a file and the DIR that holds it, or one
in place and one with -o do not. Paths are compared with symbolic links
resolved. The locks are kept in the user's cache directory
(wynot/runs, beside what wynot remembers of interrupted reductions),
not beside the inputs: each live run keeps a small record there locked
(flock), and the kernel lets go of that lock when the run's process
ends, however it ends. So a run killed with SIGKILL leaves nothing that
stops the next one: the next run on its input says that it takes over
what the killed run held, naming it, and goes on with the interrupted
reduction. Where wynot has no cache directory it can write, runs are
not locked.

With --argv, the arguments of the command are reduced instead: which of
them are needed for the failure. The command then runs in the current
directory, one test at a time unless -j is given. After ddmin, removing
each two adjacent arguments is tested too (a flag and its value, neither
of which goes alone; --n-minimal 0 turns it off). Files of the current
directory that the tests change are named at the end: a test saw what
the tests before it left there.

Relative paths in the command that contain a "/" (./prog, dir/file) are
made absolute, since tests run in another directory.

Tests run in parallel (-j, default: the number of CPUs); the result is
the same as with -j 1. Each runs in its own work directory under
WYNOT_TMPDIR (else /dev/shm or the system's temporary directory), with
a temporary directory of its own beside it as TMPDIR and GOTMPDIR
(unless the test's environment sets them), emptied when the test ends:
a go command or test binary that wynot stops leaves its build directory
or t.TempDir there, not in /tmp. When
that file system fills up (a candidate cannot be written, or a test
fails saying "No space left on device" or finding it full), wynot says
so, naming the directory, rather than call the test flaky: set
WYNOT_TMPDIR to a directory on a file system with more room. A write
beside an input (FILE.orig, a result replacing FILE, DIR.orig,
DIR.wynot-pending) or at -o that finds its own file system full names
that one instead, the input's or the output's, and its free space: make
room there, or give -o a path on a file system with more room; the
input stays as it was, or holds the last result written. Each test
is killed with its whole process group after --timeout (default: ten
times the original run, at least 1s, at most 300s; a --timeout under
100ms is refused, in every command, as too short to run a test); a test
exiting with status 124, as timeout(1) does, has timed out too. An
original that times out twice under --timeout is not run again: wynot
says it did not finish (trace, chain, --fail-on, --test) or, for reduce
without them, takes the hang as the failure. Outcomes are cached by the
candidate's content; --cache FILE keeps them across runs, so running the
same reduction again after an interruption repeats no test. The key
leaves out the timeout, calibrated anew on every run: a cached outcome
is taken when the test's runs took no longer than the new limit (or, for
a timeout, the new limit is no longer than the one it hit); otherwise
the test runs again. FILE is new, empty, or a cache wynot wrote (its
first line says so); wynot refuses any other file (exit status 1) and
leaves it as it was.

Nothing a test starts outlives it. A test that times out or is no
longer needed (a parallel test whose answer came too late, or wynot was
interrupted) is stopped as Ctrl-C stops a command: its process group
gets SIGINT, SIGTERM 100ms later and SIGKILL 200ms after that, so that
a test that removes its temporary files on SIGINT or SIGTERM (a shell's
trap, go run's build folder) gets to. When a test ends, times out or is
interrupted, wynot kills its process group and, on Linux, every process
the test detached from it: a daemon that calls setsid, forks twice or
runs under nohup. wynot is the child subreaper of its tests (prctl
PR_SET_CHILD_SUBREAPER), so that such orphans become its children, not
init's; every process of a test carries WYNOT_TEST_ID=PID-N in its
environment, and when the test ends wynot kills (SIGKILL) and reaps the
orphans that carry the test's tag, then those they leave in turn. With
-j, the end of one test never touches another's processes. A detached
process that cleared its environment carries no tag: it ends as soon as
no test runs, at the latest with wynot. What the tests of a persistent
test process (trace --gdb) detach ends with that process; the test agent
of --slurm-steps slot does the same on its node. A service that must run
across tests is started before wynot, not by the test. If wynot itself
is killed with SIGKILL, the process groups of its running tests are
killed with it, and the next run kills what still runs in its work
directories (a detached process that left them survives) and removes
its temporary folders (wynot-PID-*: work
directories, the builds of trace and chain, fuzz's compiled tests).

A flaky test (one that answers differently when asked again) does not
yield a confident wrong answer. Under --repeat auto, the default, each
test runs once until the test shows itself flaky: two runs of the
original that disagree (wynot then asks it three times more and goes on
if it failed in four of five), a candidate that gives two outcomes, a
result that does not fail again, or, where the algorithm assumes
monotony (changes), a configuration that fails inside one that passed.
From then on every test of the search runs three times; when one run of
three disagrees, two more run and the outcome of all runs but one
counts, otherwise the test is unresolved.

What wynot certifies rests on fresh runs only, made for that decision,
never on the runs that chose the result during the search. While the
test has not flipped, the result is run three more times and must fail
each time, and results with one change less (removals; up to 32,
spread over them) are run once more each and must not fail; the result
is confirmed only when 7 such runs in all (the original's second run
counts) gave the outcome seen before, with none disagreeing: the result
runs again until then. Whatever a flip rate, a result that does not fail
is then called confirmed with probability under 1%; a removal that
fails is called passing with probability at most 1/(e·(k+1)), k the
other runs that agreed (under 1% with 32 removals or more). Once the test has
flipped, the result and every removal are run again and again until a
sequential test decides (Wald's sequential probability ratio test,
against a candidate that gives its outcome in at most half of its runs,
with bets set by the flip rate seen so far): the chance that a result
that does not fail is called confirmed, or that a removal that fails is
called passing, is at most 1% each, whatever the flip rate below 1/2.
This takes about 7 runs a decision when the answers do not flip, 13 at
a flip rate of 0.1, 25 at 0.2, 60 at 0.3 and 220 at 0.4; a decision not
reached in 200 runs leaves the result not certified (exit 3), never
called confirmed or 1-minimal. A result that does not fail again makes
wynot search once more from the original with repetition; a removal that
still fails is taken, and the search goes on from that smaller input (the
test is called flaky only when a run in the search saw that removal not
fail). --repeat N runs every
test N times (an outcome counts only when all runs agree) and confirms
the result N times, at least three, decided by a clear majority (no
bound is stated); --repeat 1 says the test is deterministic: each test
and the confirmation run once, and the result is not rechecked.

Flags:

	-j N                tests run at once (default: number of CPUs)
	--timeout D         time limit per test, e.g. 10s, at least 100ms
	                    (default: calibrated)
	--precision P       exit, message, stack or exact (default message)
	--fail-on REGEX     the failure is output matching REGEX
	--test SCRIPT       run SCRIPT in the candidate's directory as the test
	--convention C      creduce (default) or bisect: how --test's exit status reads
	--split S           auto (default), text, go, tree:LANG, lines, brackets,
	                    tokens, runes or bytes
	--typecheck=false   with Go input: run candidates with new type errors
	                    too, with SQL input candidates that use a table
	                    they no longer create (by default they are
	                    predicted unresolved)
	--with FILE         copy FILE beside the candidate for the test (repeatable)
	--variant V         book (default) or tse: the test order of ddmin
	--n-minimal N       tests for the removals past 1-minimality: spans of
	                    2 to 8 pieces, pairs and triples (default: on a
	                    result of at most 32 bytes, half as many as the
	                    search ran, at least 50; 0: none)
	--repeat N          auto (default; see above), or run each test N times
	--cache FILE        keep outcomes in FILE across runs
	-o PATH             write the result to PATH; leave the inputs alone
	                    (for a DIR: a new or empty directory)
	--argv              reduce the command's arguments instead of files
	--json              print a JSON summary on standard output
	--log FILE          write the test log to FILE ("Test #12 ...: FAIL (...)",
	                    and the last lines of each test's output)
	-v                  write the test log to standard error
	--events FILE       write one JSON line per test to FILE
	--report DIR        write DIR/index.html: a self-contained page of the
	                    run (every test with its configuration and outcome,
	                    the size over the tests, statistics, the result and
	                    its difference from the original)
	-q                  no progress and no summary, only errors
	--exec E            where tests run: local (default), slurm, or
	                    reapi://HOST:PORT[/INSTANCE] (see "wynot help clusters";
	                    also $WYNOT_EXEC), with --cpus-per-test, --slurm-args,
	                    --srun-args, --slurm-steps, --remote-input,
	                    --remote-header, --remote-credentials, --remote-env,
	                    --remote-queue-timeout and --platform
	--sandbox           confine each test (see above), with --sandbox-write
	                    DIR (repeatable) and --sandbox-net

The JSON summary (--json) counts "tests", every run of the test, as
"runs", the tests of candidates (its "outcomes" add up to them), and
"checks", the runs of the original and of the result; "timed_out" says
how many runs of candidates the timeout cut off; "size_before" and
"size_after" count its "unit" (bytes, arguments, or changes).

Exit status: 0 when a result was found, 1 on a usage or input error, 2
when the original input does not fail (or not reproducibly, or fails
before anything is built or tested), 3 when the result could not be
certified: the test is flaky and the result was not confirmed to fail
again, a result with one change less still fails, or the answers flip
too often to decide either within 200 runs; or the result may fail
another way than the original (a caution says why; --json has it in
"caveats") (the result is kept, and the closing lines say what holds), 4
when the empty input fails as the original does, 130 when interrupted.

Example: a program crashes on a large HTML page.

	$ wynot reduce page.html -- ./printer
	wynot: the original input fails: exit status 2: panic: assignment to entry in nil map [main.layoutSelect < main.layout < main.main]
	wynot: a run counts as this failure when it ends with exit status 2 and the same message (numbers, addresses and paths aside); a run that fails otherwise is unresolved
	wynot: reducing 43625 bytes, 2 tests at a time, 1s per test at most
	wynot: reduced page.html from 43625 bytes to 8 bytes (0.018%) in 138 tests, 0.4s
	wynot: the result is 1-minimal: removing any single one of its characters, or any single replacement of a word, number, string, bracket group or character by a smaller one, makes the failure go away; and 2-minimal: no two of its characters, and no run of 2 to 8 consecutive tokens or characters, can be removed at once with the failure still there
	wynot: page.html now holds the result; the original is in page.html.orig
	$ cat page.html
	<SELECT>

# Isolate

wynot isolate finds a 1-minimal failure-inducing difference between a
passing and a failing input (dd, TSE 2002 §5): it grows the passing input
towards the failing one and shrinks the failing input towards the passing
one, until they differ by changes each of which matters: with any one of
them less, the failing input does not fail; with any one more, the
passing input does not pass (the verdict says how many of those inputs
passed or failed, and how many failed another way: unresolved). When
every test either passes or fails, this is a binary search:
about log2(n) tests for n differences, where reduce needs at least one
test per element of its result.

	wynot isolate [flags] PASSING FAILING -- CMD [ARG...]
	wynot isolate [flags] --test SCRIPT PASSING FAILING
	wynot isolate [flags] --argv PASSING_ARGS FAILING_ARGS -- CMD

The changes are the edits that turn PASSING into FAILING, computed first
line by line, then, within the lines that still differ, token by token and
character by character (--split auto; or lines, tokens, runes or bytes
only). PASSING may be an empty file or /dev/null: isolation then finds the
part of FAILING whose presence makes the difference.

The test is given as for reduce; the candidate is in a file named like
FAILING. FAILING must fail (it is run twice) and PASSING must pass.

The results go next to FAILING (or into -o DIR, or into the current
directory when FAILING is not a regular file): FAILING.pass, the
maximized passing input, and FAILING.fail, the minimized failing one.
wynot prints their difference as a unified diff, and the size of the
common context, FAILING.pass; a line longer than 160 characters is shown
as a window around the change with its column, and binary inputs as a
hex dump around the first difference (the files and --json hold all of
it). Existing files are never written over: when
FAILING.pass or FAILING.fail exists, the results go to FAILING.1.pass and
FAILING.1.fail (or the next free number), and wynot says so.

With --argv, PASSING_ARGS and FAILING_ARGS hold argument lists, one
argument per line, for the program after "--", which runs in the current
directory: which argument makes the difference between a passing and a
failing command line? (TSE 2002 §4.1: of 31 GCC options, -ffast-math.)

Flags are those of reduce, except --argv as above, and:

	--split S           auto, lines, tokens, runes or bytes (default auto)
	--bisect=false      follow the rule order of the algorithm exactly; by
	                    default, a determinate outcome at two subsets is
	                    acted on at once (TSE 2002 Proposition 18), which
	                    halves the tests when no test is unresolved
	-o DIR              write FAILING.pass and FAILING.fail into DIR

Exit status as for reduce; 2 also when PASSING does not pass.

# Maximize

wynot maximize finds the largest part of a failing input that still
passes (ddmax): a 1-maximal passing input, to which adding any single
missing line, token or character makes the test fail. It is a repair
candidate that keeps as much of the input as possible.

	wynot maximize [flags] FILE -- CMD [ARG...]
	wynot maximize [flags] --test SCRIPT FILE

The empty input must pass. Passes go from lines to tokens to characters
(--split). The result goes to FILE.pass next to FILE (or into -o DIR).
Flags and exit status are those of isolate.

# Changes

wynot changes finds the changes that make a program fail: between an old
version that passes and a new one that fails, which few changed lines
cause the failure? (Zeller, "Yesterday, my program worked. Today, it does
not. Why?", ESEC/FSE 1999.)

	wynot changes [flags] OLD_DIR NEW_DIR -- CMD [ARG...]
	wynot changes [flags] --git GOOD BAD -- CMD [ARG...]
	wynot changes [flags] --test SCRIPT OLD_DIR NEW_DIR

The changes are the hunks of the diff between the two trees: runs of
changed lines separated by at least --context unchanged lines (default
2); files added, deleted or renamed, and binary files, are changes as a
whole. Each test runs CMD inside a copy of OLD_DIR with a subset of the
changes applied ("{}" in CMD stands for that directory). The copies are
kept per parallel test and only files that differ from the previous test
are rewritten, so incremental builds stay warm.

What a test may do: write into its tree. Before every test, wynot puts
the tree back to exactly the candidate: files and directories the
previous test created are removed, files it changed, removed or made
another mode are written again (with a new modification time, so that
make-style tools see the change), and a file it only touched gets its
old times back. A test therefore never sees what an earlier test left,
and a test that writes into its tree finds what the same test made clean
finds; the first time a test is seen to write into its tree, wynot says
which paths it changed. Where the work directories are on a local file
system (tmpfs, ext4, xfs, btrfs, overlayfs, f2fs), inotify tells wynot
which entries of the tree's directories a test changed, and finding out
costs what the test changed; a file changed only through a shared memory
mapping, without a write, truncate or chmod, is then not noticed.
Elsewhere (NFS, a shared file system of a cluster), when the kernel's
queue of changes overflows, when a test removes, renames or chmods a
directory of the tree, or when inotify is out of watches, it costs a
stat of every file of the tree (about 11 ms for 2,000 files on a 2-core
virtual machine, see bench/RESULTS.md). What a test writes outside its
tree (the directory wynot was started in, $HOME, /tmp, a database)
cannot be undone: a test that keeps state there may answer differently
for the same candidate, which wynot can only notice as flakiness.

CMD's failure is told as in reduce: what the new version shows. With
"go test ./...", the failure is the tests that fail and their messages,
so a configuration whose code does not build, or in which other tests
fail, is unresolved, never the failure; with "make check", the check
target failing with the same failure lines; a clean exit passes. The
command runs at the top of each candidate tree, and a relative path in
it that names a file or directory of the trees (go test ./pkg, typed in
the repository) names the candidate's copy. --convention bisect reads
only CMD's exit status, as git bisect run does: 0 passes, 125 is
unresolved, 1 to 127 fail, 128 and above abort the search. A --test
script is read so by default.

Changes that need each other are tried together. For Go source, wynot
works out from the code (go/types) which changes need which: a new
function and its callers, a renamed field and its uses, an added import
and the code that uses it (Go refuses unused imports), a moved package
and its importers, a go.mod requirement with its go.sum lines and the
imports of the new module, and a module's new version with the code that
starts using a name of that module the old tree never uses (its new API)
or stops using one the new tree never uses. A configuration is tested
with what its changes need, and such changes stay in one group (--group
auto or decls; with --group none, dirs, files or idents they are not
worked out). When a configuration still does not build, wynot reads the
error messages for file:line positions and for the names they say are
missing, adds the changes that touch those lines and the ones that
declare those names (a func, type, var or const, a struct field, an
import in the file that misses a package's name; in an added file too),
or, when no change declares a name, every change that mentions it; for
a name declared or imported and not used, the changes of that file that
use it; for a name missing from another module's package, the go.mod
change that requires that module; and tests again (failure resolution,
FSE 1999 §8; --no-resolve turns both off).
An outcome always belongs to the configuration that was actually tested:
when resolution added changes, the larger configuration is the one that
failed, and the search goes on from it, so the changes it added can
still be removed.

Before a configuration is built, the Go packages of the files it changes
are parsed and type-checked as configured (go/types, with the tree's own
packages from the tree, and the standard library's and other modules'
packages from the export data go list -export gives, read once from the
module cache, offline, when the changes touch neither go.mod nor go.sum
and the trees hold one module; otherwise those packages are empty, so
errors about their names are never held against a configuration). A
configuration that does not type-check does not build: its messages are
read by failure resolution as a build's would be, and when nothing makes
it build it is unresolved without a build ("predicted" in the closing
line and in --json). That holds only if the test builds those packages:
configurations that do not type-check in a package are built all the
same until one of those builds reports an error in a file of that
package; if one passes or fails instead, configurations that do not
type-check there are built from then on, and wynot says so.
Only the packages the configuration changes are checked, not their
importers. --no-predict builds every configuration.

The search is dd with interference (FSE 1999 Algorithm 1; --algorithm
dd, the default): it returns every change of a failure-inducing
combination, also when the failure needs two changes together. It is the
default because on real regressions (bench/regressions) it named the
documented culprit in every case with the fewest builds; --algorithm
ddplus (FSE 1999 Algorithm 2) found smaller patches that fail for another
reason (say, a deleted line that breaks the program some other way), and
ddmin, which finds a 1-minimal failing subset, needed more builds. Then
the failure-inducing hunks are split into runs of changed lines, and
where those still span several lines, into single inserted or deleted
lines, and isolated again (--no-refine stops at hunks; a patch of more
than 64 hunks, a rewrite, is not split). A file the new version adds,
in a language wynot parses (Go, and the tree-sitter grammars of wynot
help reduce but HTML and JSON; wynot version lists them), is split by its
top-level declarations, each with the comments before it (in Go: its
package clause and import lines, each import, each declaration with its
doc comment; the members of a C++ namespace, of a Java, JavaScript or
TypeScript class and of a Rust impl each on its own, inside the
container's first and last lines); the patch adds only those the
failure needs (in Go with what they need to compile). A changed file of such a language is grouped
by the declaration each hunk is in (--group auto or decls).

Grouping and resolution make the search faster, but they can keep a
change the failure does not need beside one it does. So before a patch
is called 1-minimal, it is checked at the granularity it is printed in
(its line edits, or with --no-refine its hunks): each change is removed
alone and the rest is tested exactly as it is, with nothing added to
make it build; a removal that still fails is left out of the patch, and
the check starts again. Before that, the changes of each file are
removed together the same way: a file whose changes do not build one
without another may not be needed at all. A removal that does not build
shows nothing either way: the verdict says how many of them passed and
how many did not build ("removals_passed", "removals_unresolved" in
--json), and how many of those were not built because their Go code
does not type-check (as above; "removals_predicted"). Large patches are
checked too (a rewrite of 151 hunks whose removals do not type-check
costs a few builds); only a patch of more than 1,024 changes is not,
and it is then not called minimal. As for every command, the patch is
certified by the final confirmation (it is not run again when it failed
again as it was found) and by running the removals that were built once
more, each once while the test has shown no flip, and decided by the
sequential test once it has, as wynot help reduce says of flaky tests.

With --git, GOOD and BAD are revisions of the repository around the
current directory (or -C DIR), given as two arguments or as the range
GOOD..BAD. When GOOD is not an ancestor of BAD (a
release on a branch of its own), the search starts at their merge base
instead, which must pass, as git bisect's does; GOOD itself is then not
tested. First the commits between them on BAD's first-parent line are
searched, each implying all earlier ones, which is a binary search like
git bisect; commits that do not build are skipped, as git bisect skip
does. A commit that changes no file the test's build reads gives its
parent's outcome and is not a candidate: one that changes only
documentation (*.md, LICENSE, ...), CI configuration
(.github/, .travis.yml, ...) or repository metadata (.gitignore, linter
configuration), and in a Go module one that changes only Go test files
and testdata, unless the test's command line or script runs go test.
Files at or below a package that uses //go:embed are always read. The
search splits the candidates and tests the revision just before each
split; the commit it names is tested, and so is its parent, so a wrong
guess costs tests, never the answer. The commits passed over are counted
by reason, listed under -v and in --json ("skipped_commits"). --paths
LIST (comma-separated files, directories or patterns from the
repository's top) makes only the commits that change them candidates, as
git bisect start -- PATHS does; --paths . makes every commit one. When
the failure-inducing commit is a merge, its merged branch's commits are
searched the same way, its head and merge base tested when the answer
needs them; when the head does not fail on its own or the merge base
does not pass, the merge's own changes are searched. Then the hunks of
the failure-inducing commit. The repository is only read (git ls-tree,
diff and cat-file): its worktree, index and refs stay as they are. A
worktree with uncommitted changes is refused unless --allow-dirty. A
run locks (as reduce does) OLD_DIR and NEW_DIR, which it reads, and -o
FILE, which it writes; with --git it locks nothing of the repository:
it reads only git's objects, which no run changes, so bisections of one
repository, and reductions of its files in place, run side by side.
With --report, the page shows before the search over the hunks the
revisions (as given and as resolved, and the merge base the search
started from), the failure-inducing commit (hash, subject, author,
date), the commits passed over and why, and each revision the bisection
tested, in order, with its outcome and the commits it left; --json has
the same ("revisions", "culprit", "untested", "bisection"). When the
revisions before the culprit could not be tested, no one commit is the
culprit: --json has no "culprit" but "culprits", every commit the
failure may have come with, and its verdict says so first.

The result is a patch that applies to the old version (git apply, or
patch -p1), printed and, with -o FILE, written to FILE. Every patch
reported has been verified: the old version with the patch applied is
run again without the cache, three times (see --repeat under reduce),
and must fail. If the search's own result does not fail again (a flaky
test), the smallest configurations that failed during the search are
tried, and the first that fails again is reported as such; if none does,
no patch is reported. The new version without the patch is run too, and
with --git the good revision with the patch: exactly that tree, with
nothing added to make it build (when it does not build, whether the
failure has another cause is not known, and the verdict says so). The
closing lines (and "verdict" in --json, word for word) say what was
verified, what resolution added, and when the failure has more than one
cause: another failing configuration disjoint from the patch, or the new
version still failing without it. When the exit status is all wynot
reads (a script, or output that names no failure), and the patch's
output ends differently from the new version's, it says so first, as a
caution: that may be another failure, which --fail-on REGEX would tell
apart; the patch is then called neither verified nor 1-minimal, and
wynot exits 3.

Flags are those of reduce (without --split, --argv), and:

	--git               OLD and NEW are git revisions
	-C DIR              the repository (default: the current directory)
	--allow-dirty       run although the worktree has uncommitted changes
	--paths LIST        with --git: only commits that change these files,
	                    directories or patterns are candidates (. : all)
	--context N         unchanged lines that separate hunks (default 2)
	--group G           none, dirs, files, decls, idents or auto (default)
	--algorithm A       dd (default), ddplus or ddmin
	--no-resolve        test configurations as they are: no changes added
	                    from the source or from build messages
	--no-refine         report hunks; do not split them into single lines
	--no-predict        build every configuration, also one whose Go code
	                    does not type-check
	--convention C      bisect (default for --test, and with it CMD's exit
	                    status alone) or creduce
	-o FILE             write the failure-inducing patch to FILE

Exit status: 0 when the changes were found and verified, 1 on a usage or
input error, 2 when the new version does not fail (or fails before
anything is built or tested) or the old one does not pass, 3 when the
search ended but no patch failed again when run again (a flaky test), or
the patch may fail another way than the new version (a caution says
why), 130 when interrupted.

# Fuzz

wynot fuzz reduces an entry of a Go fuzz target's corpus on which the
target fails: a crasher that go test -fuzz wrote to
PACKAGE_DIR/testdata/fuzz/FuzzXxx/, or one you wrote yourself.

	wynot fuzz [flags] PACKAGE_DIR FuzzXxx [ENTRY]

ENTRY may be left out when the corpus holds only one. The package's
tests are compiled once (go test -c, in PACKAGE_DIR: its module is
found wherever wynot is started); each candidate entry is then run by
the test binary alone (-test.run=FuzzXxx/...), in a private directory, so
a test that reads other files of its package directory will not find
them. A candidate fails when it fails the way the entry does: the same
panic or failure message and the same top stack frames (--precision
stack is the default here; message or exit are looser). Messages are
compared with numbers, addresses, paths and double-quoted strings
aside: a target's t.Fatalf("Parse(%q) …", s) quotes the value it got,
which changes as the entry shrinks.

Every value of the entry is reduced in turn until none changes: strings
and byte slices by lines, tokens and characters (ddmin), integers
towards zero (a binary search), floats to zero, bools to false. The
result is written next to the entry as ENTRY-min (the entry itself is
kept), ready to commit as a regression test, and printed as Go values.

Flags: -j, --timeout, --precision, --repeat, --cache, --json, --log,
--events, --report, --exec (see "wynot help clusters"), -q and -v, as for
reduce.

# Trace

wynot trace runs a program, then runs it again and again while skipping
some of the statements it executed, and keeps only the executions
without which its output changes: the critical slice of the run (STRIPE,
"Finding Failure Causes through Automated Testing", AADEBUG 2000, §6).
It is real causality, found by running the program, not the potential
causality of a static or dynamic slice: a statement that ran but whose
effect did not matter is not in it. The result is 1-minimal: skipping any
single one of its statement executions more changes the output.

	wynot trace [flags] PKGDIR [-- ARG...]
	wynot trace [flags] --gdb BINARY [-- ARG...]

PKGDIR is the directory of a Go main package; ARG... are the program's
arguments, and it runs in the current directory with the standard input
of --stdin FILE (else empty). Every package of the program outside the
standard library is instrumented (each statement guarded, its executions
counted): its own module's and those of the modules it requires, from
the module cache, a replace directory, a workspace or vendor/, so that a
defect in a library is in reach; --pkg PATTERNS (go list patterns, run
in PKGDIR: --pkg . for the main package alone, --pkg github.com/x/y/...
for one library) narrows that, and the first line of the run says which
packages were instrumented and which ran as they are (packages that use
cgo; a dependency that cannot be instrumented is named with the reason).
Files of a dependency in the module cache are named
module@version/file.go. The program is built once with go build -overlay
(a module cache dependency from a copy in wynot's work directory, which
a go.mod of wynot's own points the build at): neither your files nor the
module cache are written. Each package is rewritten under its own
module's language version (a go 1.16 library stays go 1.16 code). An
instance of a statement is one execution of it; "skipping" instance k of
a statement means that its k-th execution does nothing, as if the
statement were not there that time (a skipped x := e leaves x zero). On
long runs (10,000 statement executions or more; --hierarchy on|off
decides otherwise) the search goes from coarse to fine: whole functions
and loops (every call, every iteration), then single calls and loop
iterations, then whole statements, then single statement executions,
each level within what the one before kept. On shorter runs, where most
calls matter, that costs more tests than it saves, and all statement
executions are reduced at once. Control statements (if, for, switch),
return and branch statements are not skipped: the program's own state
decides where it goes. A run that executes a statement more often than
the original run did has left the original trace (a skipped loop update
that makes a loop run on) and is stopped at once as unresolved, as is
one that crashes where the original did not, or hangs (--timeout).

By default a partial run must reproduce the original run's standard
output, standard error and exit status. --observe narrows that: stdout,
stderr, exit (joined with +, as stdout+exit), or a regular expression,
and then only the output lines matching it must be the same: the
critical slice with respect to one output. A Go crash report on standard
error compares without the hexadecimal numbers of its traceback
(argument words and addresses differ from run to run).

--pass ARGS names a run whose output is right: its arguments, split by
the shell's quoting rules (an empty string for none), and --pass-stdin
FILE its standard input. Every test then runs it too, with the same
instances skipped (the k-th execution of a statement in one run is the
k-th in the other, within the passing run's own counts), and it must
reproduce its own output as well: the slice keeps the instances without
which either output changes (one that the failing run no longer executes
under the slice's plan is shown as "#k in the passing run"). That is the
slice to take when the wrong output is one that a run computing nothing
prints as well (false, 0, an empty line): skipping the defective
statement leaves such an output as it is, but not the passing run's,
which needs the statement. Each test costs both runs; with --gdb, the
passing run has a gdb of its own beside the failing run's in each -j
slot.

The result shows each statement that ran, how many of its executions
the slice keeps of those of the original run ("2 of 70000"), and which:
as line_time, the line and the time of the execution in the partial run
(its position among all statement executions), or #k, its k-th
execution, when the run was too long to record its order (after the
levels above the statement instances, the k-th in the run without the
calls and iterations they found unneeded, as the output then says). When every instance the slice keeps is in main.main
while the run also executed statements of other functions (an empty or
constant output, such as "0 elements", that a run skipping all of those
prints as well), wynot says so and how many it skipped: such a slice
cannot show what made the output wrong; give a run whose output is
right with --pass, or compare the two runs with wynot chain.

	main.go:18  sum = sum + a   5 of 6  18₈ 18₁₁ 18₁₄ 18₁₇ 18₂₀

With --gdb, BINARY is a C (or C++) program built with debugging
information and without optimization (gcc -g -O0). It runs under gdb
(which must be installed), with a breakpoint on every source line with
code of the program's own files; an instance is one hit of a line, and a
skipped instance jumps to the end of that line's code. Each test is one
run of the program under gdb; one gdb is kept running per -j slot and
runs the program again for each test. Build the program statically
(gcc -g -O0 -static): gdb then need not load the shared libraries and
their symbols for every run, which makes a test of a small program about
ten times cheaper (17 ms instead of 195).

The program's output must be the same every time it runs with the same
arguments: wynot says so when two runs of the original differ. Every
test runs the program in the current directory, -j at a time: a program
that writes files there should be traced with -j1, or from a directory
of its own. Under real concurrency, which execution of a statement is
the k-th is as nondeterministic as the scheduling.

Flags:

	--stdin FILE     the program's standard input
	--pass ARGS      also run these arguments, whose output is right,
	                 in every test (--pass-stdin FILE: its input)
	--pkg PATTERNS   instrument only the packages these go list patterns
	                 match (default: all outside the standard library)
	--observe WHAT   all (default), stdout, stderr, exit, or a REGEX
	--hierarchy H    auto (default), on or off: coarse to fine
	--flat           the same as --hierarchy off
	--gdb            BINARY is a C program, traced under gdb by line
	-o FILE          also write the slice to FILE

and -j, --timeout, --repeat, --cache, --json, --log, --events,
--report, --exec (see "wynot help clusters"), -q and -v, as for
reduce. The JSON summary has the slice (slice: file, line, text, ran,
reached, kept, times; ran counts the original run's executions, reached
the partial run's), renumbered (#k counts in the run without what the
levels skipped), the plan of the partial run (skipped: element, then
instance ranges), shallow (the slice is all in main.main, none of the
other functions' instances), pass (the passing run of --pass: args,
stdin), elements_before and elements_after (statement executions).

# Chain

wynot chain explains why a program fails on one input and not on
another by its state: at a moment of the failing run, which part of the
program's variables, transplanted into the passing run at the same
moment, makes it fail? And along the run, where does that cause move
from one variable to another? Such a cause transition is where a
defect turns good values into bad ones ("Why Programs Fail", Appendix
A.2 and A.3; "Isolating Cause-Effect Chains from Computer Programs",
FSE 2002).

	wynot chain [flags] --pass 'ARGS' --fail 'ARGS' PKGDIR
	wynot chain [flags] --pass-stdin FILE --fail-stdin FILE PKGDIR
	wynot chain [flags] --pass-env NAME=VALUE --fail-env NAME=VALUE PKGDIR
	wynot chain [flags] --gdb --pass 'ARGS' --fail 'ARGS' BINARY

PKGDIR is the directory of a Go main package, ARGS the arguments of its
passing and of its failing run (split by the shell's quoting rules: --pass
'a "b c"' is two arguments), --pass-stdin and --fail-stdin FILE their
standard input, --pass-env and --fail-env NAME=VALUE settings of their
environments (runs that differ in their input or environment only need
no --pass and --fail). Every package of the program outside the standard
library gets a probe before every statement, its own module's and its
dependencies', as wynot trace instruments them (--pkg PATTERNS narrows;
the first line says which packages were probed; built once with go
build -overlay; neither your files nor the module cache are written); a
step of a run is one probe passed. At a step, a probe captures the
program's state as a memory graph: the variables in scope (local
variables and parameters of the function), the package variables of the
probed packages, os.Args, the environment variables that --pass-env and
--fail-env set ($WIDTH), and everything reachable from them (struct
fields, array, slice and map elements, pointees, interface values), one
vertex per address and type, so that two names of one piece of memory
(a slice and its alias, a pointer and its target) are one vertex. Where
that state shows no difference that makes the passing run fail, it is
captured again with the receivers, parameters and named results of the
probed functions the step was called from (named FUNC::NAME, as
report::m, nearest call first; only while the program runs one
goroutine, as several goroutines' calls would mix).

The inputs are state too: the standard input by lines ("stdin line 2"),
while the program has read none of it; and at its first step in
main.main, the regular files of up to 256 KiB that its arguments and
those environment variables name, by lines ("file os.Args[1] line 3",
"file $CONFIG line 2"). A transplant of a file's lines gives the passing
run a file of the new lines in that argument's or variable's place;
where the two runs' files differ in their lines, the files' names are
not a difference of their own. Of a larger file, the name is the
difference, and wynot says so.

The state of the failing run at a step is compared with the passing
run's matching state: the same statement with the same backtrace, as
often reached. The two graphs are matched by traversing them in
parallel from the variables; where they part, each difference is a
delta: a value that differs (s.Scores[2] = 90 instead of 50), an
element or map entry only one run has, a pointer or slice that points
elsewhere (b shares its elements with a[0]). dd then isolates the
relevant deltas: a 1-minimal set that, transplanted into the passing
run at that step (by reflection in the running program), makes it fail,
where the passing run without them passes. Calls and returns are steps
like the others.

Without --at, wynot examines the failing run's first step and its last
step with relevant deltas, and narrows the cause transitions between
them by divide and conquer (cts): where two steps have the same relevant
variables nothing is searched between them; otherwise the step halfway
is examined, down to consecutive steps. A variable is its memory: two
states compare by the addresses of the vertices of their deltas,
captured again in one run, so a slice passed to a function is the same
variable under its new name, and a value copied into a parameter is a
new one. Each transition says how the cause moved: by a statement, a
call or a return; into a state the passing run never reaches (diverges:
the runs took different paths there); or through a state whose whole
captured difference does not make the passing run fail (hidden: the
cause is where the capture does not see, such as a caller's local
variables); or through a state of the failing run that could not be
captured again (unseen: its steps differ from run to run, as with
goroutines, or the capture timed out). wynot suggests one as the defect's location: the first where
a statement overwrote a variable that carried the cause with another
wrong value, else the first on whose way the passing run changed a
variable carrying the cause that the failing run left as it was (the
failing run skipped something: a branch decided it), else the first
where the cause leads the failing run where the passing run never goes
(a branch the cause decides: from a state with the cause, on to a
statement the passing run never goes to from there, or into a state it
never reaches by a way it never takes), else the first statement the
failing run came to by a way the passing run never takes where the
cause appeared out of what the capture does not see (a loop over a
copy left early: a check missing before that statement), else, when the failing run
crashed in the runtime (an index out of range, a nil dereference; not a
panic the program raised), the statement that crashed (from the last
state with relevant deltas: a check missing there is a common defect),
else the first into a state the passing run never reaches only because
a loop or a call ran more often in the failing run, else the first
statement transition, else the first branch into the failure's own
report (a statement making an error message that the failing output
shows: where the program noticed the bad state, ranked last for that).
The state the chain ends in is the last with relevant deltas: each of
the failing run's last steps is examined, then steps further back. When the two runs, from matching states in one
call, took different paths on the way to that transition in its
function, the suggestion names the branch where they parted (a wrong
condition decides differently there while the cause stays put); states
matched as the k-th time at a line with the same backtrace that lie in
different calls of one run (a loop ran more often in the other) are not
compared so. It is a suggestion; the chain is the evidence. --at FILE:LINE[#N] examines the N-th time the
failing run reaches the line instead (repeat it for a chain of chosen
moments).

The test of a transplant has three outcomes. By default, a run that
reproduces the failing run's output (stdout, stderr and exit status, or
what --observe names) fails, one that reproduces the passing run's
output passes, and anything else is unresolved; a transplant can well
make a different, correct output. Both runs must do the same every time.
Where the failure is a symptom in the output, say so: --fail-on REGEX
(and --pass-on REGEX for the passing behavior; a run matching neither is
then unresolved). A step after the first output that differs can rarely
reproduce the failing output whole: the chain ends there. Each relevant
set is run again when the search ends, without the cache.

Limits of the Go backend: a probe sees the local variables of its own
function, not its callers' (those are in the state only where reachable,
as through a pointer or a slice passed down; their parameters are);
channels and functions are compared as nil or not; a slice grown by a
transplant gets a new array, and the slices and pointers of the state
that shared the old one are moved with it. Steps are counted over all
goroutines: under real concurrency, which statement is the N-th step is
as nondeterministic as the scheduling. The first 4,194,304 steps of the
failing run are examined. Every test runs the program in the current
directory, -j at a time: a program that writes files there should be
examined with -j1, or from a directory of its own.

With --gdb, BINARY is a C program built with gcc -g -O0 (-static makes
runs under gdb much cheaper); a step is a source line with code of its
own files, and the state is that of every frame of the program's own
functions (a caller's variable as FUNC::NAME, as main::argc), the file's
global variables, char pointers as strings, and pointers to heap blocks
as arrays sized from the block (malloc_usable_size: the memory map of
the appendix). Deltas are applied with gdb's set variable; a new string
is allocated in the program by gdb. One gdb is kept running per -j slot
and runs the program again for each test (gdb's start would be most of a
test's cost); a test that times out kills its gdb with the program, and
the next test starts a new one.

A delta the passing run cannot take (a value of a type of which its
state holds none and that wynot cannot make, such as *bytes.Reader) is
set aside, named with why, and the search goes on with the others.
Exit status as for reduce, and 5 when no state examined has a
difference that, transplanted into the passing run, makes it fail: no
cause was found, and the closing lines say why (nothing is claimed).

Flags:

	--pass ARGS        the passing run's arguments
	--fail ARGS        the failing run's arguments
	--pass-stdin FILE  the passing run's standard input
	--pkg PATTERNS     probe only the packages these go list patterns
	                   match (default: all outside the standard library)
	--fail-stdin FILE  the failing run's standard input
	--pass-env N=V     set N in the passing run's environment (repeatable)
	--fail-env N=V     set N in the failing run's environment (repeatable)
	--at FILE:LINE[#N] examine the state there (repeatable)
	--fail-on REGEX    the failure, as output matching REGEX
	--pass-on REGEX    the passing behavior (with --fail-on)
	--observe WHAT     without --fail-on: all, stdout, stderr, exit, REGEX
	--max-vertices N   the largest memory graph (20000); larger are cut
	--gdb              BINARY is a C program, examined under gdb

and -j, --timeout, --repeat, --cache, --json, --log, --events,
--report, --exec (see "wynot help clusters"), -q and -v, as for
reduce. The JSON summary has the chain
(chain: step, file, line, func, stack, matched, the graphs' sizes, the
number of deltas, tests, the relevant deltas with kind, var, old, new,
text and aliases, every difference in words, and the deltas set aside
as untransplantable) and the transitions
(from_step, to_step, where, func, before, after, kind, overwritten,
parting, direct, suggested), and the suggested location (suggested:
where, func, step, why). --report draws the chain: each state a box with its
relevant deltas, the transitions between them.

# Clusters

When one machine is not enough, every command runs its tests elsewhere
with --exec (or $WYNOT_EXEC); -j is then the number of tests in flight.
The results are those of a local run: only where a test runs changes.

--exec slurm runs each test as a job step, srun --exact -n1 -c K (K from
--cpus-per-test, default 1; --srun-args adds arguments to every srun,
such as --mem-per-cpu=2G). Inside an allocation (salloc -n 8 wynot ...,
or a batch job) the steps run in it, and -j defaults to its task count;
a step starts in tens of milliseconds. Outside one, wynot obtains an
allocation of -j tasks itself (salloc, with --slurm-args passed to it),
says so while it waits in the queue, and gives it back at the end, on
Ctrl-C, and even when it is killed. The work directories must be on a
file system the nodes share: when the allocation has a node other than
this machine and WYNOT_TMPDIR is not set, they go to wynot's directory
in your cache directory (~/.cache/wynot/tmp), as home directories are
usually shared; WYNOT_TMPDIR chooses another. wynot checks it with a
first step before any test.
wynot's timeout and Ctrl-C cancel the steps, never other jobs. A step
that Slurm ends itself (its time limit, out of memory, a node failure,
a cancellation by someone else) is UNRESOLVED with the reason in the
log, never a pass or a fail.

A job step costs some 50 ms to start, which a test of a few
milliseconds feels. --slurm-steps slot starts one long-lived step per
test slot instead, running a test agent (wynot's own executable, which
must then be where the nodes see it): each test is a process the agent
starts on the step's node, killed as a whole at its timeout, and costs
what a local test does. Slurm's limits (--srun-args --time, --mem) then
apply to a slot's step, not to each test; a test whose step Slurm ends
is UNRESOLVED as above, and the slot gets a new step. The agents'
steps end with wynot. The default, --slurm-steps test, is a step per
test.

--exec reapi://HOST:PORT[/INSTANCE] runs each test as an action of a
remote execution service (Remote Execution API v2: Buildbarn,
BuildBuddy, EngFlow, NativeLink, Buildfarm); reapis:// (or grpcs://)
uses TLS. The action's input root is the candidate's work directory,
plus the files the test needs besides: the test script, a program named
by path (./prog), and what --remote-input PATH declares (a file or a
directory, repeatable), sent under .wynot-inputs/ with the command's
arguments rewritten to match. Only blobs the service lacks are sent, so
a candidate costs the bytes it changed; blobs above 1 MiB, and batches a
service refuses for their size, go by ByteStream, so outputs and inputs
of any size work. The test's exit status is recorded in a file and the
action succeeds, so that the service's action cache keeps failing
outcomes too. wynot asks the action cache before it executes an action
(as Bazel does; Buildbarn's Execute does not look it up), and the
cache's key leaves out the timeout, calibrated anew on every run: a
second run of wynot on the same input is answered from it, but for the
checks of the original and of the result. Those, and repeated runs
(--repeat, flaky tests), carry a fresh salt, always run, and are not
cached. The remote command gets PATH and the environment the test adds,
and what --remote-env KEY=VALUE (or KEY, for wynot's own value;
repeatable) gives it, such as HOME for a script that finds its toolchain
there; when the original's failure is not reproduced remotely, wynot
says so. Its standard input is a file. A test killed by a signal reads
as such; an exit status above 128 is taken for one. --remote-header
KEY=VALUE (repeatable) and --remote-credentials FILE (a token sent as
"authorization: Bearer") authenticate with hosted services; --platform
KEY=VALUE (repeatable) selects workers. When a failing test's output
names a local file that was not sent, wynot says which, and the flag
that sends it.

A remote test must not write to its input files: a worker may share
them with later actions (Buildbarn's hard-links them from its file
cache), so a test that changes them changes what later tests read.

A test's time counts from the start of its action's execution, as the
service reports it: time in the service's queue never makes a test
time out. A service whose workers are all gone keeps actions queued
(Buildbarn does), and one whose worker died while executing a test
keeps that action executing past its timeout until the worker is back
or the service notices (Buildbarn: after a minute, when wynot executes
the action anew). When tests wait so, none of them executing, for 20 s
(a tenth of --remote-queue-timeout if that is shorter), wynot says so,
and again when they execute (Buildbarn's worker killed, started again
40 s later):

	wynot: 2 remote tests executing past their timeout for 20 s: no worker of 127.0.0.1:8980 is executing them (is a worker down?); wynot waits up to 10 min (--remote-queue-timeout)
	wynot: remote tests execute again at 127.0.0.1:8980, after 35 s in which none did

A worker back in time gives the result a run without the fault gives.
After --remote-queue-timeout (default 10 min, enough for a worker to
restart or a pool of workers to start from none; 0 waits without
bound) wynot gives up, and keeps its best result as when the service
itself is gone. Calls the service fails as unavailable (a restart) are
retried with backoff for a minute from the first failure. Should a
service not enforce an action's timeout, wynot ends the test as timed
out 5 min past it if other tests executed meanwhile (if none did, its
worker may be gone, and it waits as a queued test does).

Errors are said before any test runs: no srun or salloc on PATH, work
directories the nodes do not share, a service that does not answer or
does not execute actions for the instance name given, credentials it
refuses; a platform no worker offers ends the run at the first test,
and a service that answers but cannot reach its own scheduler or
storage is told apart from one that is not running. wynot trace and chain with
--gdb keep a debugger running per test slot and run locally only.
*/
package main
