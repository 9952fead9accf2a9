package command_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wynot/wynot/command/chain"
	"github.com/wynot/wynot/command/changes"
	"github.com/wynot/wynot/command/isolate"
	"github.com/wynot/wynot/command/trace"
	"github.com/wynot/wynot/report"
)

// TestSummaryGolden: the JSON summary and the HTML report of each
// command's part, every field set, stay as they are, byte for byte: a
// field that moves, is renamed or is lost fails here. (Chain and trace
// have theirs in their packages, from their Close.)
func TestSummaryGolden(t *testing.T) {
	ps, fs := 3, 9
	cd := changes.Detail{
		Commits: 12, Commit: "0123456789ab fix <it>", Hunks: []string{"a.go:3+1", "b.go:7-2"}, Resolutions: 4, Resolved: 2, Completed: 5,
		Complement: "PASS", Needed: 1, OtherCause: []string{"c.go:1+1"}, RemovalsPassed: 1, RemovalsUnresolved: 1, RemovedByCheck: 2,
		Verdict: []string{"the changes are 1-minimal"}}
	for _, c := range []struct {
		name string
		sum  *report.Summary
		rows []report.Row
	}{
		{"reduce", &report.Summary{Command: "reduce", Formatted: []string{"main.go"}}, nil},
		{"isolate", &report.Summary{Command: "isolate", Detail: isolate.Detail{PassSize: &ps, FailSize: &fs}}, nil},
		{"changes", &report.Summary{Command: "changes", Detail: cd}, cd.Rows()},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.sum
			s.Algorithm, s.Tests, s.Runs, s.Checks, s.CacheHits, s.Predicted, s.Flaky = "ddmin", 20, 17, 3, 4, 2, 1
			s.Outcomes = report.Outcomes{Pass: 9, Fail: 6, Unresolved: 2}
			s.SizeBefore, s.SizeAfter, s.Unit, s.ElementsBefore, s.ElementsAfter, s.Granularity = 100, 10, "bytes", 50, 5, "lines"
			s.Minimal, s.Confirmed, s.Interrupted, s.Seconds, s.Signature, s.Result = true, true, true, 1.25, "exit status 2", "x.txt"
			s.Files, s.Passes, s.Diff = []string{"x.txt"}, []report.PassStats{{Name: "lines", File: "x.txt", Tests: 17, Predicted: 2, BytesBefore: 100, BytesAfter: 10, Seconds: 0.5}}, "-a\n+b\n"
			var js strings.Builder
			if err := s.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var rec report.Recorder
			rec.Record(report.Event{Test: 1, Pass: "lines", Config: "1.", Changes: 1, Size: 4, Outcome: "FAIL"})
			rec.Record(report.Event{Test: 2, Pass: "lines", Config: ".2", Changes: 1, Size: 3, Outcome: "PASS"})
			var page strings.Builder
			if err := rec.WriteHTML(&page, report.Page{Summary: s, Result: "b\n", Diff: s.Diff, Rows: c.rows}); err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct{ ext, got string }{{".json", js.String()}, {".html", page.String()}} {
				path := filepath.Join("testdata", "summary", c.name+f.ext)
				if *update {
					if err := os.WriteFile(path, []byte(f.got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if string(want) != f.got {
					t.Errorf("%s differs:\n--- want\n%s--- got\n%s", path, want, f.got)
				}
			}
		})
	}
}

// TestDetailFields: each command's part of the summary names no field
// as the common part does (the JSON would hold the name twice), and
// every one of its fields is omitempty (a run that ends before the
// command's Close has not set them).
func TestDetailFields(t *testing.T) {
	names := func(ty reflect.Type) map[string]string {
		out := map[string]string{}
		for f := range ty.Fields() {
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			out[name] = opts
		}
		return out
	}
	common := names(reflect.TypeFor[report.Summary]())
	for _, d := range []any{isolate.Detail{}, changes.Detail{}, trace.Detail{}, chain.Detail{}} {
		ty := reflect.TypeOf(d)
		for name, opts := range names(ty) {
			if _, ok := common[name]; ok {
				t.Errorf("%s names %q as the summary's common part does", ty, name)
			}
			if !strings.Contains(opts, "omitempty") {
				t.Errorf("%s's %q is not omitempty", ty, name)
			}
		}
	}
}
