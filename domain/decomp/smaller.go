package decomp

// SmallerChars proposes, in a small text, each letter or digit made 0,
// or else the least of its own kind (1, A or a): the smallest characters
// a text of the same length can hold there in shortlex order (bytes
// compared), as shrinkray and C-Vise canonicalize a small test case, so
// that two reductions of one failure end alike (t={# and 0={# crash a
// parser the same way). Every change leaves the text as long and sorting
// first (schedule.Simpler); in a text of more than MaxSmallerChars bytes
// the pass proposes nothing: there the other passes pay better.
//
// Finish, when set, finishes each candidate as a syntax pass does.
type SmallerChars struct {
	Finish func([]byte) ([]byte, error)
}

// MaxSmallerChars is the largest text SmallerChars proposes changes in.
const MaxSmallerChars = 64

// Name is the pass's name in logs.
func (SmallerChars) Name() string { return "smaller characters" }

// Plan proposes the replacements of data's characters.
func (p SmallerChars) Plan(data []byte) (Plan, error) {
	var chs []Change
	if len(data) <= MaxSmallerChars {
		for i, b := range data {
			if isAlnum(b) && b > '0' {
				chs = append(chs, Change{Kind: "character → 0", Edits: []Splice{{From: i, To: i + 1, Parts: []Part{Lit("0")}}}})
			}
			// Where 0 is refused (a number must not start with it, a
			// name with a digit), the next smallest of the same kind.
			switch {
			case '1' < b && b <= '9':
				chs = append(chs, Change{Kind: "character → 1", Edits: []Splice{{From: i, To: i + 1, Parts: []Part{Lit("1")}}}})
			case 'A' < b && b <= 'Z':
				chs = append(chs, Change{Kind: "character → A", Edits: []Splice{{From: i, To: i + 1, Parts: []Part{Lit("A")}}}})
			case 'a' < b && b <= 'z':
				chs = append(chs, Change{Kind: "character → a", Edits: []Splice{{From: i, To: i + 1, Parts: []Part{Lit("a")}}}})
			}
		}
	}
	return &Rewrite{Src: data, Changes: chs, Finish: p.Finish}, nil
}

func isAlnum(b byte) bool { return isDigit(b) || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
