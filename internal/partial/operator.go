package partial

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/value"
)

// Operator is one node of a partial circuit. Step computes the operator's
// output for one transaction from one implicit delta per input (never nil;
// possibly empty), each well formed and sorted by key. Step must not change
// the operator's state: it stages what it would change, Commit applies the
// staged changes and Abort drops them, so that a transaction that fails
// anywhere leaves every operator as it was.
//
// The contract in full:
//
//   - Empty in, empty out: when every input is empty, Step returns an empty
//     delta and stages nothing (the circuit then skips the node).
//   - Inputs are valid only during the call and never modified; their
//     rows are valid until the next step, and may be passed to the
//     output; an operator copies what it keeps in its state.
//   - The output is well formed (delta.Implicit.Validate) and sorted by key,
//     with the schema Schema returns. A key whose change cancels (its old
//     and new view rows are the same, as far as anything says) is absent.
//   - Errors are *pgerr.Error values: 0A000 when a change cannot be stated
//     by the seven kinds without state the operator does not keep (the
//     view needs normalisation), P0002/23505 when a change contradicts the
//     operator's state (a key changed that it does not hold, a key inserted
//     that it holds), errors of evaluating expressions otherwise.
//   - Commit and Abort are called at most once after each Step, never
//     without a Step before them.
type Operator interface {
	dataflow.Op[*delta.Implicit]
	Schema() *delta.Schema
}

// tri is a three-valued answer: known true, known false, or unknown.
type tri int8

const (
	unknown tri = iota
	yes
	no
)

// known reports whether every column in cols is known.
func known(cols []int, u delta.Cols) bool {
	for _, c := range cols {
		if u.Has(c) {
			return false
		}
	}
	return true
}

// spare is the largest buffer an operator keeps from one step to the
// next; a bulk step's (the first, which loads the relations) is let go.
const spare = 1 << 12

// buffers are what an operator reuses from one step to the next: its
// output (read by the circuit before the next step) and the facts of its
// input.
type buffers struct {
	out   delta.Implicit
	facts []delta.Fact
}

// reset empties the output for schema s and returns it.
func (b *buffers) reset(s *delta.Schema) *delta.Implicit {
	clear(b.out.Ins)
	clear(b.out.Del)
	b.out.Schema, b.out.Ins, b.out.Del = s, b.out.Ins[:0], b.out.Del[:0]
	if cap(b.out.Ins) > spare {
		b.out.Ins = nil
	}
	if cap(b.out.Del) > spare {
		b.out.Del = nil
	}
	return &b.out
}

// factsOf returns d's facts in the reused buffer.
func (b *buffers) factsOf(d *delta.Implicit) []delta.Fact {
	clear(b.facts)
	b.facts = b.facts[:0]
	if cap(b.facts) > spare {
		b.facts = nil
	}
	b.facts = d.AppendFacts(b.facts)
	return b.facts
}

// arena hands out rows that live until its next reset: an operator's
// output rows, which the operators above it and the circuit's output read
// in the same step and do not keep (Join copies a left row it keeps, the
// circuit the new rows of its output). Rows handed out are NULL.
type arena struct {
	buf  []value.Value
	used int
}

// row returns a row of n NULLs.
func (a *arena) row(n int) value.Row {
	if a.used+n > len(a.buf) {
		// The full buffer stays with the rows already handed out.
		a.buf, a.used = make([]value.Value, max(2*len(a.buf), 16*n, 256)), 0
	}
	r := a.buf[a.used : a.used+n : a.used+n]
	a.used += n
	return r
}

// reset takes back every row handed out.
func (a *arena) reset() {
	clear(a.buf[:a.used])
	a.used = 0
	if len(a.buf) > spare {
		a.buf = nil // a bulk step's
	}
}
