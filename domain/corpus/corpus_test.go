package corpus

import (
	"math"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	in := "go test fuzz v1\n" + strings.Join([]string{
		`string("a\"b\x00")`, `[]byte("\xff\n")`, `int(-42)`, `int64(7)`, `uint8(200)`, `byte('x')`,
		`rune('é')`, `float64(-1.5)`, `float32(3)`, `bool(true)`, `bool(false)`,
		`math.Float64frombits(0x7ff0000000000000)`,
	}, "\n") + "\n"
	vs, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 12 || string(vs[0].Bytes) != "a\"b\x00" || vs[2].Int != -42 || vs[4].Uint != 200 || vs[5].Uint != 'x' ||
		vs[6].Int != 'é' || vs[7].Float != -1.5 || !vs[9].Bool || vs[10].Bool || !math.IsInf(vs[11].Float, 1) {
		t.Fatalf("parsed %+v", vs)
	}
	again, err := Parse(Format(vs))
	if err != nil {
		t.Fatal(err)
	}
	if string(Format(again)) != string(Format(vs)) {
		t.Errorf("not stable:\n%s\n%s", Format(vs), Format(again))
	}
	if Size(vs) != 4+2+1+1+1+1+1+1+1+1+0+1 {
		t.Errorf("size %d", Size(vs))
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		"", "go test fuzz v2\nint(1)\n", "go test fuzz v1\n", "go test fuzz v1\nint(\n",
		"go test fuzz v1\nfoo(1)\n", "go test fuzz v1\nuint(-1)\n", "go test fuzz v1\nstring(1)\n",
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
