// Package dataflow runs circuits of incremental operators. A circuit is a
// directed acyclic graph whose sources are named inputs (one per base
// table's changes) and whose nodes are Operators; one Step feeds every
// input's change batch for one logical time through every node in
// topological order, so that the inputs of a multi-input operator always
// meet aligned.
//
// Example: a view SELECT a, b FROM t WHERE a > 10, maintained:
//
//	c := dataflow.NewCircuit()
//	t := c.Input("t")
//	f := c.Add(op.NewFilter(aGreaterThan10), t)
//	m := c.Add(op.NewMap(exprs), f)
//	v := op.NewIntegrate()
//	out := c.Add(v, m)
//	err := c.Step(map[string]zset.ZSet{"t": delta})
//	viewDelta := c.Output(out) // v now holds the view's contents
package dataflow

import "github.com/deltaview/deltaview/internal/zset"

// Operator is one node of a Z-set circuit: an Op over Z-set batches.
type Operator = Op[zset.ZSet]

// Op is one node of a graph over deltas of type D (a Z-set batch for the
// dataflow's operators, an implicit delta for the partial ones). Step
// computes the operator's output for one logical step from one delta per
// input (a Z-set input is consolidated, nil or empty when it did not
// change). Step must not change the operator's state: it stages what it
// would change, Commit applies the staged changes and Abort drops them, so
// that a step that fails anywhere in the circuit leaves every operator as
// it was. A Z-set operator's output must be consolidated; the partial
// operators' contract adds to this one (partial.Operator).
//
// The contract in full:
//
//   - Empty in, empty out. For every operator, a Step whose inputs are all
//     empty returns an empty batch and stages nothing. The circuit relies on
//     this and does not call Step at all when every input is empty (nor
//     Commit or Abort afterwards).
//   - Inputs. len(in) is the number of inputs the node was added with. The
//     slice in is valid only during the call; the batches in it stay valid and
//     unmodified until the following Commit or Abort, so an operator may keep
//     them to apply at Commit. An operator never modifies an input batch.
//   - Rows are immutable. An operator may keep any row it sees in its state
//     and may put input rows in its output without copying them. One
//     exception, arranged by the compiler between two operators: a map
//     told to reuse its rows (op.Map.ReuseRows) rewrites them at its next
//     Step, and its only reader, a top-k told so (op.TopK.CopyKept),
//     copies the rows it keeps.
//   - Output. The returned batch is consolidated (zset.IsConsolidated) and
//     is immutable for the caller (for Z-sets; partial.Operator's output is
//     well formed and sorted by key). It stays valid until the operator's next
//     Step; after that the operator may reuse its memory (see ReuseBatch).
//     The output may be one of the input batches (Integrate returns its input).
//   - Errors. A Step that returns an error has staged nothing that Abort
//     does not drop; the circuit calls Abort on it and on every node stepped
//     before it. Errors are *pgerr.Error values.
//   - Commit and Abort are called at most once after each Step, never
//     without a Step before them.
type Op[D any] interface {
	Step(in []D) (D, error)
	Commit()
	Abort()
	// Info describes the operator for EXPLAIN: kind, state, cost.
	Info() Info
	// State reports the rows and approximate bytes the operator holds (after
	// the last Commit).
	State() StateSize
}

// Info describes an operator for EXPLAIN, e.g.
// {Kind: "Filter", Detail: "amt > 10", State: "none", Cost: "O(change)"}.
type Info struct {
	Kind   string // operator name
	Detail string // its parameters: predicate, expressions, keys
	State  string // what state it keeps, in words
	Cost   string // work per input change
	// Unbounded says why the work per change is not bounded by the change
	// and the output it causes (row numbering: every row of the
	// partition); empty when it is. Joins without an equality key are
	// found in the plan instead (plan.RangeJoins).
	Unbounded string
}

// StateSize is the state an operator holds: rows kept and the approximate
// bytes they take, including the index's overhead.
type StateSize struct {
	Rows  int64
	Bytes int64
}

// maxReusedBatch is the largest batch capacity an operator keeps for reuse:
// a transaction of 10,000 changes (20,000 entries) reuses its buffers from
// one step to the next rather than growing new ones; bigger buffers (from
// a cold start, say) are left to the garbage collector.
const maxReusedBatch = 1 << 15

// ReuseBatch returns an empty batch to build the next output in, given the
// operator's previous output prev: prev's memory, cleared, when it is small
// enough to be worth keeping, or nil. Only call it at the start of Step,
// when prev is no longer valid for anyone.
func ReuseBatch(prev zset.ZSet) zset.ZSet {
	if cap(prev) > maxReusedBatch {
		return nil
	}
	if len(prev) <= 4 {
		// A change's few entries, one by one: cheaper than clear's
		// call into the runtime (not a range loop, which becomes one).
		for i := 0; i < len(prev); i++ {
			prev[i] = zset.Entry{}
		}
		return prev[:0]
	}
	clear(prev)
	return prev[:0]
}

// ReuseBatchN is ReuseBatch for an output of up to n entries: a batch of
// capacity n when prev's is less, so that a big step (a cold start's)
// fills it without growing it entry by entry.
func ReuseBatchN(prev zset.ZSet, n int) zset.ZSet {
	if out := ReuseBatch(prev); cap(out) >= n {
		return out
	}
	return make(zset.ZSet, 0, n)
}

// BatchGainer is implemented by an operator whose work per change falls
// as a step's batch grows, well past what a cache holds: a grouping,
// whose changes of one group in a step share one update of the group.
// The engine does not cut a big commit into chunks (engine/chunked.go)
// for views that hold such an operator.
type BatchGainer interface {
	GainsFromBigSteps() bool
}
