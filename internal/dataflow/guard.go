package dataflow

// Guard bounds the memory one step may add to a circuit: the operators
// that can multiply their input (a join's pairs) count the rows they make
// as they make them, and the step fails with Over's error as soon as the
// count exceeds Max, before the memory is taken; the circuit then aborts
// the step, so its state is as before. A cold start sets a guard with
// what the budgets leave, so that an over-budget view is refused while
// its state grows, not after.
type Guard struct {
	Max  int64
	Over func(held int64) error
	held int64
}

// Charge counts n more bytes; a nil guard counts nothing.
func (g *Guard) Charge(n int64) error {
	if g == nil {
		return nil
	}
	g.held += n
	if g.Max > 0 && g.held > g.Max {
		return g.Over(g.held)
	}
	return nil
}

// Reset starts a new count under max.
func (g *Guard) Reset(max int64) { g.Max, g.held = max, 0 }

// Guarded is an operator that counts what it makes against a guard.
type Guarded interface {
	SetGuard(g *Guard)
}

// SetGuard sets the guard of every operator that takes one; nil removes
// it.
func (c *Circuit) SetGuard(g *Guard) {
	for i := range c.nodes {
		if o, ok := c.nodes[i].op.(Guarded); ok {
			o.SetGuard(g)
		}
	}
}
