package dd

import "context"

// Transitions isolates the cause transitions between two moments of a
// failing run: cts of "Why Programs Fail", Appendix "Formal
// Definitions", §A.3 ("Isolating cause transitions"). Where same says
// that the failure-causing variables of two moments agree, there is no
// transition between them to look for; otherwise a moment between them
// is examined and both halves narrowed, down to moments that between
// says are adjacent. It returns the direct transitions found, in order.
//
// between returns a moment strictly between a and b (the middle, or one
// near it with a matching state), and false when a and b are adjacent.
// same says whether var(Δa) = var(Δb).
func Transitions[M any](ctx context.Context, a, b M,
	between func(ctx context.Context, a, b M) (M, bool, error),
	same func(ctx context.Context, a, b M) (bool, error)) ([][2]M, error) {
	var out [][2]M
	var cts func(a, b M) error
	cts = func(a, b M) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		eq, err := same(ctx, a, b)
		if err != nil || eq {
			return err
		}
		m, ok, err := between(ctx, a, b)
		if err != nil {
			return err
		}
		if !ok {
			out = append(out, [2]M{a, b})
			return nil
		}
		if err := cts(a, m); err != nil {
			return err
		}
		return cts(m, b)
	}
	err := cts(a, b)
	return out, err
}
