//go:build cgo

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An added SQL file is refined into its statements, each with the
// comment before it: the patch is the one statement the failure needs,
// not the whole file (it was, when only Go files were outlined). The
// C file changed beside it is grouped by function.
func TestChangesRefinesAddedSQL(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	c := "int twice(int x)\n{\n\treturn 2 * x;\n}\n\nint thrice(int x)\n{\n\treturn 3 * x;\n}\n"
	for _, v := range []string{"old", "new"} {
		write(t, filepath.Join(dir, v, "schema.sql"), []byte("CREATE TABLE t (a INT);\n"))
		write(t, filepath.Join(dir, v, "m.c"), []byte(c))
	}
	write(t, filepath.Join(dir, "new", "m.c"), []byte(strings.Replace(strings.Replace(c, "2 * x", "2 * x + 1", 1), "3 * x", "3 * x + 1", 1)))
	write(t, filepath.Join(dir, "new", "reports.sql"), []byte(`-- the count
SELECT count(*) FROM t;

-- a table of the rows
CREATE TABLE u AS SELECT a FROM t;

-- the culprit
DROP TABLE t;

SELECT 1;
`))
	test := filepath.Join(dir, "test.sh")
	write(t, test, []byte("! grep -q 'DROP TABLE' \"$1/reports.sql\" 2>/dev/null\n"))
	r := wynotRun(t, dir, nil, "changes", "--json", "-j1", "old", "new", "--", "sh", test, "{}")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	s := r.summary(t)
	if want := "+-- the culprit\n+DROP TABLE t;\n+\n"; !strings.Contains(s.Diff, want) || strings.Contains(s.Diff, "SELECT") || strings.Contains(s.Diff, "m.c") {
		t.Errorf("patch:\n%s\nwant only\n%s\n%s", s.Diff, want, r.stderr)
	}
	if !s.Minimal {
		t.Errorf("not minimal:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "new", "reports.sql")); err != nil {
		t.Errorf("the new tree lost a file: %v", err)
	}
}
