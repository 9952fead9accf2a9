package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// storeSQL is a small SQLite script whose last query meets the wrong
// result of bench/sql/test.sh (SQLite 3.40.1 reads IN ((SELECT …)) as a
// scalar subquery).
const storeSQL = `CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT, artist_id INTEGER REFERENCES artist (id));
CREATE TABLE sale (album_id INTEGER, qty INTEGER);
INSERT INTO artist (id, name) VALUES (1, 'AC/DC');
INSERT INTO artist (id, name) VALUES (2, 'Accept');
INSERT INTO album (id, title, artist_id) VALUES (1, 'For Those About To Rock', 1);
INSERT INTO album (id, title, artist_id) VALUES (2, 'Balls to the Wall', 2);
INSERT INTO album (id, title, artist_id) VALUES (3, 'Restless and Wild', 2);
INSERT INTO sale (album_id, qty) VALUES (1, 3);
INSERT INTO sale (album_id, qty) VALUES (3, 1);
CREATE VIEW catalog AS SELECT a.title, ar.name FROM album AS a JOIN artist AS ar ON ar.id = a.artist_id;
SELECT name FROM artist ORDER BY name;
SELECT name, count(*) FROM catalog GROUP BY name ORDER BY name;
SELECT title FROM album WHERE id IN ((SELECT album_id FROM sale)) ORDER BY title;
`

// TestLongReduceSQLite reduces an SQL script with a real database, Debian's
// sqlite3, as the test (bench/sql/test.sh: the script's output differs
// from its output with IN ((…)) read as SQLite 3.41 reads it). The
// result still fails the test, is a fraction of the script, and is the
// same with the SQL predictions (candidates that use a table they no
// longer create, not run) as without them (--typecheck=false), with
// fewer tests run (one at a time, so that no speculative test counts).
// Two reductions of some 400 tests each, each test three runs of
// sqlite3: long (WYNOT_LONG_TESTS=1).
func TestLongReduceSQLite(t *testing.T) {
	long(t)
	needGrammars(t)
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 is not installed (apt-get install sqlite3)")
	}
	t.Parallel()
	test, err := filepath.Abs("../../bench/sql/test.sh")
	if err != nil {
		t.Fatal(err)
	}
	var results [2][]byte
	var tests, predicted [2]int
	for i, typecheck := range []string{"--typecheck=true", "--typecheck=false"} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "store.sql"), []byte(storeSQL))
		write(t, filepath.Join(dir, "test.sh"), []byte("#!/bin/sh\nexec sh "+test+" store.sql\n"))
		os.Chmod(filepath.Join(dir, "test.sh"), 0o755)
		check := exec.Command("sh", "test.sh")
		check.Dir = dir
		if err := check.Run(); err != nil {
			t.Fatalf("the script does not fail the test: %v", err)
		}
		r := wynotRun(t, dir, nil, "reduce", "-j", "1", "--json", typecheck, "--test", "./test.sh", "store.sql")
		if r.code != 0 {
			t.Fatalf("%s: exit %d:\n%s", typecheck, r.code, r.stderr)
		}
		got := read(t, filepath.Join(dir, "store.sql"))
		s := r.summary(t)
		t.Logf("%s: %d tests, %d predicted, %d bytes:\n%s", typecheck, s.Tests, s.Predicted, len(got), got)
		if !s.Minimal || s.SizeAfter != len(got) || 3*len(got) > len(storeSQL) {
			t.Errorf("%s: minimal %v, %d bytes of %d (file %d)", typecheck, s.Minimal, s.SizeAfter, s.SizeBefore, len(got))
		}
		if !strings.Contains(strings.Join(strings.Fields(strings.ToUpper(string(got))), ""), "IN((SELECT") {
			t.Errorf("%s: the result lost the query that fails", typecheck)
		}
		check = exec.Command("sh", "test.sh")
		check.Dir = dir
		if err := check.Run(); err != nil {
			t.Errorf("%s: the result does not fail the test: %v", typecheck, err)
		}
		if i == 0 && !strings.Contains(r.stderr, "uses a table it no longer creates") {
			t.Errorf("the closing lines do not say SQL candidates were predicted:\n%s", r.stderr)
		}
		results[i], tests[i], predicted[i] = got, s.Tests, s.Predicted
	}
	if !bytes.Equal(results[0], results[1]) {
		t.Errorf("the predictions changed the result:\n%s\nwithout:\n%s", results[0], results[1])
	}
	if tests[0] >= tests[1] || predicted[0] <= predicted[1] {
		t.Errorf("with the predictions %d tests (%d predicted), without %d (%d predicted)", tests[0], predicted[0], tests[1], predicted[1])
	}
}
