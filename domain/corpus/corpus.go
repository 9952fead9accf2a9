// Package corpus reads and writes the entries of Go's fuzzing corpus
// ("go test fuzz v1" files in testdata/fuzz/FuzzXxx/): one value per line,
// written as a Go conversion of a literal, e.g. string("abc"), []byte("\x00"),
// int(-3), bool(true). wynot fuzz reduces such entries value by value.
package corpus

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strconv"
	"strings"
)

// Header is the first line of every corpus file.
const Header = "go test fuzz v1"

// Value is one value of an entry: its Go type and its content.
type Value struct {
	Type  string // string, []byte, bool, byte, rune, int..., uint..., float32, float64
	Bytes []byte // string, []byte
	Int   int64  // int, int8..int64, rune
	Uint  uint64 // uint, uint8..uint64, byte
	Float float64
	Bool  bool
}

// Kind tells how a value is reduced: "bytes" (string, []byte), "int",
// "uint", "float" or "bool".
func (v Value) Kind() string {
	switch v.Type {
	case "string", "[]byte":
		return "bytes"
	case "int", "int8", "int16", "int32", "int64", "rune":
		return "int"
	case "uint", "uint8", "uint16", "uint32", "uint64", "byte", "uintptr":
		return "uint"
	case "float32", "float64":
		return "float"
	}
	return "bool"
}

// String writes the value as the corpus file does.
func (v Value) String() string {
	switch v.Kind() {
	case "bytes":
		return fmt.Sprintf("%s(%s)", v.Type, strconv.Quote(string(v.Bytes)))
	case "int":
		if v.Type == "rune" {
			return fmt.Sprintf("rune(%s)", strconv.QuoteRune(rune(v.Int)))
		}
		return fmt.Sprintf("%s(%d)", v.Type, v.Int)
	case "uint":
		if v.Type == "byte" {
			return fmt.Sprintf("byte(%s)", strconv.QuoteRune(rune(v.Uint)))
		}
		return fmt.Sprintf("%s(%d)", v.Type, v.Uint)
	case "float":
		if math.IsInf(v.Float, 0) || math.IsNaN(v.Float) {
			return fmt.Sprintf("math.Float64frombits(0x%x)", math.Float64bits(v.Float))
		}
		return fmt.Sprintf("%s(%s)", v.Type, strconv.FormatFloat(v.Float, 'g', -1, 64))
	}
	return fmt.Sprintf("bool(%t)", v.Bool)
}

// Parse reads a corpus file.
func Parse(data []byte) ([]Value, error) {
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != Header {
		return nil, fmt.Errorf("not a Go fuzz corpus file: the first line is not %q", Header)
	}
	var vs []Value
	for n, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		v, err := parseValue(l)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n+2, err)
		}
		vs = append(vs, v)
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("the corpus file holds no values")
	}
	return vs, nil
}

func parseValue(l string) (Value, error) {
	e, err := parser.ParseExpr(l)
	if err != nil {
		return Value{}, fmt.Errorf("%q: %v", l, err)
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return Value{}, fmt.Errorf("%q: want a conversion such as string(\"x\")", l)
	}
	var typ string
	switch f := call.Fun.(type) {
	case *ast.Ident:
		typ = f.Name
	case *ast.ArrayType:
		if id, ok := f.Elt.(*ast.Ident); ok && f.Len == nil && id.Name == "byte" {
			typ = "[]byte"
		}
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == "math" && f.Sel.Name == "Float64frombits" {
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok {
				return Value{}, fmt.Errorf("%q: bad float bits", l)
			}
			bits, err := strconv.ParseUint(lit.Value, 0, 64)
			if err != nil {
				return Value{}, fmt.Errorf("%q: %v", l, err)
			}
			return Value{Type: "float64", Float: math.Float64frombits(bits)}, nil
		}
	}
	v := Value{Type: typ}
	arg := call.Args[0]
	neg := false
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, arg = true, u.X
	}
	switch v.Kind() {
	case "bool":
		id, ok := arg.(*ast.Ident)
		if typ != "bool" || !ok || id.Name != "true" && id.Name != "false" {
			return Value{}, fmt.Errorf("%q: unknown type or value", l)
		}
		v.Bool = id.Name == "true"
		return v, nil
	}
	lit, ok := arg.(*ast.BasicLit)
	if !ok {
		return Value{}, fmt.Errorf("%q: want a literal", l)
	}
	switch v.Kind() {
	case "bytes":
		if lit.Kind != token.STRING {
			return Value{}, fmt.Errorf("%q: want a string literal", l)
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return Value{}, fmt.Errorf("%q: %v", l, err)
		}
		v.Bytes = []byte(s)
	case "int", "uint":
		var n uint64
		if lit.Kind == token.CHAR {
			r, _, _, err := strconv.UnquoteChar(lit.Value[1:len(lit.Value)-1], '\'')
			if err != nil {
				return Value{}, fmt.Errorf("%q: %v", l, err)
			}
			n = uint64(r)
		} else {
			var err error
			if n, err = strconv.ParseUint(lit.Value, 0, 64); err != nil {
				return Value{}, fmt.Errorf("%q: %v", l, err)
			}
		}
		if v.Kind() == "uint" {
			if neg {
				return Value{}, fmt.Errorf("%q: negative unsigned value", l)
			}
			v.Uint = n
		} else {
			v.Int = int64(n)
			if neg {
				v.Int = -v.Int
			}
		}
	case "float":
		f, err := strconv.ParseFloat(lit.Value, 64)
		if err != nil {
			return Value{}, fmt.Errorf("%q: %v", l, err)
		}
		if neg {
			f = -f
		}
		v.Float = f
	}
	return v, nil
}

// Format writes an entry as a corpus file.
func Format(vs []Value) []byte {
	var b bytes.Buffer
	b.WriteString(Header + "\n")
	for _, v := range vs {
		b.WriteString(v.String() + "\n")
	}
	return b.Bytes()
}

// Size is the size of an entry's values: bytes of strings and byte
// slices, one for every other value that is not zero.
func Size(vs []Value) int {
	n := 0
	for _, v := range vs {
		switch v.Kind() {
		case "bytes":
			n += len(v.Bytes)
		case "int":
			if v.Int != 0 {
				n++
			}
		case "uint":
			if v.Uint != 0 {
				n++
			}
		case "float":
			if v.Float != 0 {
				n++
			}
		default:
			if v.Bool {
				n++
			}
		}
	}
	return n
}
