// Cc is a toy compiler for a small subset of C, standing in for GCC 2.95
// in the case study of TSE 2002 §4.1: it parses and checks a program
// (syntax errors and undeclared names are reported as errors, exit status
// 1) and "optimizes" its loops, where it crashes with an internal compiler
// error (exit status 4, as GCC's) on one construct: inside a loop, a
// variable v assigned an addition involving v, followed by an assignment
// a[v] = a[v] * (...) of the same array element. It reads the file named
// by its argument.
package main

import (
	"fmt"
	"os"
	"strings"
	"unicode"
)

type token struct {
	kind string // "id", "num", "str", or the punctuation itself
	text string
	line int
}

type compileError struct {
	line int
	msg  string
}

func fail(line int, format string, args ...any) {
	panic(compileError{line, fmt.Sprintf(format, args...)})
}

func lex(src string) []token {
	var ts []token
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				fail(line, "unterminated comment")
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case unicode.IsLetter(rune(c)) || c == '_':
			j := i
			for j < len(src) && (unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j])) || src[j] == '_') {
				j++
			}
			ts = append(ts, token{"id", src[i:j], line})
			i = j
		case unicode.IsDigit(rune(c)):
			j := i
			for j < len(src) && (unicode.IsDigit(rune(src[j])) || src[j] == '.') {
				j++
			}
			ts = append(ts, token{"num", src[i:j], line})
			i = j
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				j++
			}
			if j >= len(src) || src[j] != '"' {
				fail(line, "missing terminating \" character")
			}
			ts = append(ts, token{"str", src[i : j+1], line})
			i = j + 1
		default:
			for _, op := range []string{"==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-="} {
				if strings.HasPrefix(src[i:], op) {
					ts = append(ts, token{op, op, line})
					i += 2
					goto next
				}
			}
			if !strings.ContainsRune("+-*/%<>=!&(){}[];,", rune(c)) {
				fail(line, "stray '%c' in program", c)
			}
			ts = append(ts, token{string(c), string(c), line})
			i++
		next:
		}
	}
	return append(ts, token{"eof", "end of input", line})
}

// expr is an expression tree: op is "id", "num", "str", "call", "index",
// "=" or an operator; kids are its operands.
type expr struct {
	op   string
	text string
	kids []*expr
	line int
}

func (e *expr) String() string {
	switch e.op {
	case "id", "num", "str":
		return e.text
	case "index":
		return e.kids[0].String() + "[" + e.kids[1].String() + "]"
	case "call":
		return e.kids[0].String() + "(...)"
	case "()":
		return "(" + e.kids[0].String() + ")"
	}
	if len(e.kids) == 1 {
		return e.op + e.kids[0].String()
	}
	return e.kids[0].String() + e.op + e.kids[1].String()
}

type parser struct {
	ts     []token
	p      int
	scopes []map[string]bool
	funcs  map[string]bool
}

func (p *parser) peek() token { return p.ts[p.p] }
func (p *parser) next() token { t := p.ts[p.p]; p.p++; return t }
func (p *parser) is(k string) bool {
	return p.peek().kind == k || p.peek().kind == "id" && p.peek().text == k
}
func (p *parser) expect(k string) token {
	if !p.is(k) {
		fail(p.peek().line, "expected '%s' before '%s'", k, p.peek().text)
	}
	return p.next()
}

func (p *parser) declare(name string) { p.scopes[len(p.scopes)-1][name] = true }
func (p *parser) declared(name string) bool {
	for _, s := range p.scopes {
		if s[name] {
			return true
		}
	}
	return p.funcs[name]
}

var types = map[string]bool{"int": true, "double": true, "char": true, "void": true, "long": true}

func (p *parser) isType() bool { return p.peek().kind == "id" && types[p.peek().text] }

func (p *parser) program() {
	for !p.is("eof") {
		if !p.isType() {
			fail(p.peek().line, "expected declaration before '%s'", p.peek().text)
		}
		p.next()
		for p.is("*") {
			p.next()
		}
		name := p.expect("id")
		if p.is("(") {
			p.funcs[name.text] = true
			p.function()
			continue
		}
		p.declare(name.text)
		p.declRest()
	}
}

func (p *parser) function() {
	p.expect("(")
	p.scopes = append(p.scopes, map[string]bool{})
	defer func() { p.scopes = p.scopes[:len(p.scopes)-1] }()
	if p.is("void") && p.ts[p.p+1].kind == ")" {
		p.next()
	}
	for !p.is(")") {
		if !p.isType() {
			fail(p.peek().line, "expected parameter type before '%s'", p.peek().text)
		}
		p.next()
		for p.is("*") {
			p.next()
		}
		p.declare(p.expect("id").text)
		if p.is("[") {
			p.next()
			p.expect("]")
		}
		if !p.is(")") {
			p.expect(",")
		}
	}
	p.expect(")")
	p.block(false)
}

// declRest parses the rest of a declaration after the first name.
func (p *parser) declRest() {
	for {
		if p.is("[") {
			p.next()
			p.expect("num")
			p.expect("]")
		}
		if p.is("=") {
			p.next()
			p.expression()
		}
		if !p.is(",") {
			break
		}
		p.next()
		for p.is("*") {
			p.next()
		}
		p.declare(p.expect("id").text)
	}
	p.expect(";")
}

// block parses { stmts } and returns the statements' expressions, for
// the optimizer.
func (p *parser) block(inLoop bool) []*expr {
	p.expect("{")
	p.scopes = append(p.scopes, map[string]bool{})
	defer func() { p.scopes = p.scopes[:len(p.scopes)-1] }()
	var body []*expr
	for !p.is("}") {
		if p.is("eof") {
			fail(p.peek().line, "expected '}' at end of input")
		}
		body = append(body, p.statement()...)
	}
	p.next()
	if inLoop {
		optimizeLoop(body)
	}
	return body
}

func (p *parser) statement() []*expr {
	switch {
	case p.is("{"):
		return p.block(false)
	case p.isType():
		p.next()
		for p.is("*") {
			p.next()
		}
		p.declare(p.expect("id").text)
		p.declRest()
		return nil
	case p.is("for"):
		p.next()
		p.expect("(")
		if !p.is(";") {
			p.expression()
		}
		p.expect(";")
		if !p.is(";") {
			p.expression()
		}
		p.expect(";")
		if !p.is(")") {
			p.expression()
		}
		p.expect(")")
		p.loopBody()
		return nil
	case p.is("while"):
		p.next()
		p.expect("(")
		p.expression()
		p.expect(")")
		p.loopBody()
		return nil
	case p.is("if"):
		p.next()
		p.expect("(")
		p.expression()
		p.expect(")")
		body := p.statement()
		if p.is("else") {
			p.next()
			body = append(body, p.statement()...)
		}
		return body
	case p.is("return"):
		p.next()
		var e *expr
		if !p.is(";") {
			e = p.expression()
		}
		p.expect(";")
		if e != nil {
			return []*expr{e}
		}
		return nil
	case p.is(";"):
		p.next()
		return nil
	}
	e := p.expression()
	p.expect(";")
	return []*expr{e}
}

func (p *parser) loopBody() {
	if p.is("{") {
		p.block(true)
		return
	}
	optimizeLoop(p.statement())
}

func (p *parser) expression() *expr {
	lhs := p.binary(0)
	if p.is("=") || p.is("+=") || p.is("-=") {
		op := p.next()
		if lhs.op != "id" && lhs.op != "index" && lhs.op != "*" {
			fail(op.line, "lvalue required as left operand of assignment")
		}
		return &expr{op: "=", kids: []*expr{lhs, p.expression()}, line: op.line}
	}
	return lhs
}

var precedence = []([]string){{"||"}, {"&&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) binary(level int) *expr {
	if level == len(precedence) {
		return p.unary()
	}
	e := p.binary(level + 1)
	for {
		op := p.peek()
		found := false
		for _, o := range precedence[level] {
			if op.kind == o {
				found = true
			}
		}
		if !found {
			return e
		}
		p.next()
		e = &expr{op: op.kind, kids: []*expr{e, p.binary(level + 1)}, line: op.line}
	}
}

func (p *parser) unary() *expr {
	for _, op := range []string{"-", "!", "*", "&", "++", "--"} {
		if p.is(op) {
			t := p.next()
			return &expr{op: op, kids: []*expr{p.unary()}, line: t.line}
		}
	}
	e := p.primary()
	for {
		switch {
		case p.is("["):
			t := p.next()
			e = &expr{op: "index", kids: []*expr{e, p.expression()}, line: t.line}
			p.expect("]")
		case p.is("("):
			t := p.next()
			call := &expr{op: "call", kids: []*expr{e}, line: t.line}
			for !p.is(")") {
				call.kids = append(call.kids, p.expression())
				if !p.is(")") {
					p.expect(",")
				}
			}
			p.next()
			e = call
		case p.is("++") || p.is("--"):
			t := p.next()
			e = &expr{op: t.kind, kids: []*expr{e}, line: t.line}
		default:
			return e
		}
	}
}

func (p *parser) primary() *expr {
	t := p.next()
	switch t.kind {
	case "num", "str":
		return &expr{op: t.kind, text: t.text, line: t.line}
	case "id":
		if types[t.text] || t.text == "for" || t.text == "if" || t.text == "return" || t.text == "while" {
			fail(t.line, "expected expression before '%s'", t.text)
		}
		if !p.declared(t.text) {
			fail(t.line, "'%s' undeclared", t.text)
		}
		return &expr{op: "id", text: t.text, line: t.line}
	case "(":
		e := p.expression()
		p.expect(")")
		return &expr{op: "()", kids: []*expr{e}, line: t.line}
	}
	fail(t.line, "expected expression before '%s'", t.text)
	return nil
}

func mentions(e *expr, name string) bool {
	if e == nil {
		return false
	}
	if e.op == "id" && e.text == name {
		return true
	}
	for _, k := range e.kids {
		if mentions(k, name) {
			return true
		}
	}
	return false
}

func has(e *expr, op string) bool {
	if e == nil {
		return false
	}
	if e.op == op {
		return true
	}
	for _, k := range e.kids {
		if has(k, op) {
			return true
		}
	}
	return false
}

// optimizeLoop is the strength reduction that crashes: an induction
// variable v = ... v + ... followed by a[v] = a[v] * (...).
func optimizeLoop(body []*expr) {
	for i, s := range body {
		if s.op != "=" || s.kids[0].op != "id" || !has(s.kids[1], "+") || !mentions(s.kids[1], s.kids[0].text) {
			continue
		}
		v := s.kids[0].text
		for _, t := range body[i+1:] {
			if t.op != "=" || t.kids[0].op != "index" || t.kids[1].op != "*" {
				continue
			}
			lhs, rhs := t.kids[0], t.kids[1]
			if rhs.kids[0].op == "index" && rhs.kids[1].op == "()" &&
				lhs.kids[0].String() == rhs.kids[0].kids[0].String() &&
				lhs.kids[1].String() == v && rhs.kids[0].kids[1].String() == v {
				panic(ice{t.line, "Segmentation fault in strength_reduce"})
			}
		}
	}
}

type ice struct {
	line int
	msg  string
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cc FILE.c")
		os.Exit(2)
	}
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "cc:", err)
		os.Exit(1)
	}
	name := os.Args[1]
	defer func() {
		switch r := recover().(type) {
		case nil:
		case compileError:
			fmt.Fprintf(os.Stderr, "%s:%d: error: %s\n", name, r.line, r.msg)
			os.Exit(1)
		case ice:
			fmt.Fprintf(os.Stderr, "%s:%d: internal compiler error: %s\n", name, r.line, r.msg)
			os.Exit(4)
		default:
			panic(r)
		}
	}()
	p := &parser{ts: lex(string(src)), scopes: []map[string]bool{{}}, funcs: map[string]bool{}}
	p.program()
}
