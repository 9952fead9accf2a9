package decomp

import (
	"reflect"
	"testing"
)

// TestBundle joins files and splits them back, also after a Rewrite
// whose edits change two of them at once and empty one.
func TestBundle(t *testing.T) {
	files := []File{{"a/x.go", []byte("package a\nfunc Long() {}\n")}, {"a/y.go", []byte("package a\nvar _ = Long\n")}, {"a/z.go", nil}}
	b, err := Bundle(files)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unbundle(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(names(got), names(files)) || string(got[0].Data) != string(files[0].Data) || string(got[1].Data) != string(files[1].Data) || len(got[2].Data) != 0 {
		t.Fatalf("round trip: %q", got)
	}
	spans := BundleSpans(files)
	for i, f := range files {
		if s := string(b[spans[i][0]:spans[i][1]]); s != string(f.Data) {
			t.Errorf("span %d is %q, want %q", i, s, f.Data)
		}
	}
	// "Long" → "L" in both files: one change, two edits.
	at := func(i int, s string) int { return spans[i][0] + len(s) }
	r := &Rewrite{Src: b, Changes: []Change{{Kind: "rename", Edits: []Splice{
		{From: at(0, "package a\nfunc "), To: at(0, "package a\nfunc Long"), Parts: []Part{Lit("L")}},
		{From: at(1, "package a\nvar _ = "), To: at(1, "package a\nvar _ = Long"), Parts: []Part{Lit("L")}},
	}}}}
	out, err := r.Apply(nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err = Unbundle(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got[0].Data) != "package a\nfunc L() {}\n" || string(got[1].Data) != "package a\nvar _ = L\n" || got[2].Name != "a/z.go" {
		t.Errorf("after the rename: %q", got)
	}
	// Appending to one file's data must not run into the next file.
	got[0].Data = append(got[0].Data, "xx"...)
	if got[1].Data[0] != 'p' {
		t.Error("a file's data shares room with the next file")
	}
}

func TestBundleErrors(t *testing.T) {
	if _, err := Bundle([]File{{"x", []byte("a\x00b")}}); err == nil {
		t.Error("a NUL byte in the data was bundled")
	}
	for _, bad := range []string{"x", "\x00name without end"} {
		if _, err := Unbundle([]byte(bad)); err == nil {
			t.Errorf("Unbundle(%q) did not fail", bad)
		}
	}
}

func TestUnbundleAs(t *testing.T) {
	b, _ := Bundle([]File{{"a", []byte("1")}, {"b", []byte("2")}})
	if data, err := UnbundleAs(b, []string{"a", "b"}); err != nil || string(data[0])+string(data[1]) != "12" {
		t.Errorf("UnbundleAs: %q %v", data, err)
	}
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"a"}, "2 files in a bundle of 1"},
		{[]string{"a", "c"}, "b in the place of c"},
	} {
		if _, err := UnbundleAs(b, c.names); err == nil || err.Error() != c.want {
			t.Errorf("UnbundleAs(%q): %v, want %q", c.names, err, c.want)
		}
	}
}

func names(fs []File) []string {
	var ns []string
	for _, f := range fs {
		ns = append(ns, f.Name)
	}
	return ns
}
