package report

import (
	"strings"
	"testing"
)

func TestShowDiff(t *testing.T) {
	long := strings.Repeat("abcdefghij", 30) // 300 bytes
	changed := long[:200] + "XYZ" + long[203:]
	diff := "--- a\n+++ b\n@@ -1,2 +1,2 @@\n " + long + "\n-" + long + "\n+" + changed + "\n short\n"
	got := ShowDiff(diff)
	want := "--- a\n+++ b\n@@ -1,2 +1,2 @@\n" +
		" " + long[:160] + "…    [column 1 of 300]\n" +
		"-…" + long[152:251] + "…    [column 153 of 300]\n" +
		"+…" + changed[152:251] + "…    [column 153 of 300]\n" +
		" short\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	short := "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n"
	if ShowDiff(short) != short {
		t.Errorf("a diff of short lines changed: %q", ShowDiff(short))
	}
	// A window never cuts a UTF-8 sequence.
	u := strings.Repeat("é", 200)
	for _, l := range strings.Split(ShowDiff("-"+u+"\n+"+u+"x\n"), "\n") {
		if !strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "+") && l != "" {
			t.Errorf("line %q", l)
		}
		if strings.ContainsRune(l, '\uFFFD') {
			t.Errorf("a cut UTF-8 sequence in %q", l)
		}
	}
}

func TestHexDiff(t *testing.T) {
	a := []byte("\x00\x01binary data that goes on and on\xff\xfe and more")
	b := append([]byte(nil), a...)
	b[20] = 'X'
	got := HexDiff(a, b, "x.pass", "x.fail")
	want := `--- x.pass (44 bytes)
+++ x.fail (44 bytes)
@@ first difference at offset 20 (0x14) @@
- 00000000  00 01 62 69 6e 61 72 79 20 64 61 74 61 20 74 68  |..binary data th|
- 00000010  61 74 20 67 6f 65 73 20 6f 6e 20 61 6e 64 20 6f  |at goes on and o|
- 00000020  6e ff fe 20 61 6e 64 20 6d 6f 72 65              |n.. and more|
+ 00000000  00 01 62 69 6e 61 72 79 20 64 61 74 61 20 74 68  |..binary data th|
+ 00000010  61 74 20 67 58 65 73 20 6f 6e 20 61 6e 64 20 6f  |at gXes on and o|
+ 00000020  6e ff fe 20 61 6e 64 20 6d 6f 72 65              |n.. and more|
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if !IsBinary(a) || IsBinary([]byte("text\twith tabs\n")) {
		t.Error("IsBinary")
	}
}
