package op

import (
	"strings"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Map keeps no state: it computes each output row from an input row, one
// expression per output column (projection and computed columns), and keeps
// the weight. Distinct inputs may map to equal outputs, whose weights add;
// the output is consolidated.
type Map struct {
	exprs []expr.Expr
	// cols, when every expression is a column, are their indexes: a
	// projection copies the values without evaluating them. maxCol is
	// the largest.
	cols   []int
	maxCol int
	// keepsFirst says that the first output column is the input's
	// first: the rows of a consolidated input, which is sorted, map to
	// rows in order of their first values, whose consolidation is one
	// pass (zset.ConsolidateByFirst).
	keepsFirst bool
	// prefix says that cols are 0, 1, …: an output row is the input row's
	// first values, and is cut from it (rows are immutable) rather than
	// copied into a row of its own. A projection that keeps a table's
	// leading columns then allocates nothing a row; its rows hold their
	// input rows alive, as their values' bytes already do.
	prefix bool
	out    zset.ZSet
	// reuse says that the output rows are cut from vals, the same
	// values from step to step (ReuseRows); used is how many of them
	// the last step filled.
	reuse bool
	vals  []value.Value
	used  int
}

var _ dataflow.Operator = (*Map)(nil)

// NewMap returns a map computing exprs over each input row.
func NewMap(exprs []expr.Expr) *Map {
	m := &Map{exprs: exprs}
	cols := make([]int, len(exprs))
	for i, x := range exprs {
		c, ok := x.(*expr.Col)
		if !ok || c.Idx < 0 {
			return m
		}
		cols[i] = c.Idx
		m.maxCol = max(m.maxCol, c.Idx)
	}
	m.cols = cols
	m.keepsFirst = len(cols) > 0 && cols[0] == 0
	m.prefix = len(cols) > 0
	for i, c := range cols {
		m.prefix = m.prefix && c == i
	}
	return m
}

// ReuseRows makes the map write its output rows into one buffer of
// values that it reuses from step to step, rather than allocate each row:
// an output row is valid only until the map's next Step, an exception to
// the Operator contract's immutable rows. It is for a map whose only
// reader copies the few rows it keeps and drops the others after a
// comparison: a top-k of one partition that refills from its relation's
// index (TopK.CopyKept), whose input rows are otherwise garbage by the
// end of the step.
func (m *Map) ReuseRows() { m.reuse = true }

// ReusesRows reports whether the map reuses its rows (ReuseRows).
func (m *Map) ReusesRows() bool { return m.reuse }

// Step maps every entry, then consolidates. It allocates one row per entry
// (or cuts it from the reused buffer: ReuseRows), except for a projection
// of the input's leading columns, which cuts it from the input row.
func (m *Map) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatchN(m.out, len(in[0]))
	m.out = nil
	width := len(m.exprs)
	if m.reuse {
		m.reserveRows(len(in[0]) * width)
	}
	next := 0 // the next row's first value in m.vals
	for j, e := range in[0] {
		dataflow.TouchRows(in[0], j)
		if m.prefix && width <= len(e.Row) {
			out = append(out, zset.Entry{Row: e.Row[:width:width], W: e.W})
			continue
		}
		var r value.Row
		switch {
		case !m.reuse:
			r = make(value.Row, width)
		case width == 0:
			r = value.Row{}
		default:
			r = value.Row(m.vals[next : next+width : next+width])
			next += width
		}
		if m.cols != nil && m.maxCol < len(e.Row) {
			for i, c := range m.cols {
				r[i] = e.Row[c]
			}
			out = append(out, zset.Entry{Row: r, W: e.W})
			continue
		}
		for i, x := range m.exprs {
			v, err := x.Eval(e.Row)
			if err != nil {
				clear(out)
				m.out = out[:0]
				m.used = max(m.used, next)
				return nil, err
			}
			r[i] = v
		}
		out = append(out, zset.Entry{Row: r, W: e.W})
	}
	if m.reuse {
		// The values past this step's rows are the last step's: cleared,
		// so that they hold no text or row alive.
		clear(m.vals[next:max(next, m.used)])
		m.used = next
	}
	if m.keepsFirst {
		out = zset.ConsolidateByFirst(out)
	} else {
		out = zset.Consolidate(out)
	}
	m.out = out
	return out, nil
}

// reserveRows makes m.vals hold at least n values. A buffer bigger than
// a transaction's batches (a cold start's) is not kept for the next step.
func (m *Map) reserveRows(n int) {
	if cap(m.vals) > maxReusedValues {
		m.vals, m.used = nil, 0
	}
	if cap(m.vals) < n {
		m.vals, m.used = make([]value.Value, n), 0
	}
	m.vals = m.vals[:cap(m.vals)]
}

// maxReusedValues is the most values a map reusing its rows keeps from one
// step to the next: 20,000 rows of five columns, 2.4 MB.
const maxReusedValues = 100_000

// Commit does nothing: Map has no state.
func (m *Map) Commit() {}

// Abort does nothing: Map has no state.
func (m *Map) Abort() {}

// Info describes the map: its expressions.
func (m *Map) Info() dataflow.Info {
	s := make([]string, len(m.exprs))
	for i, x := range m.exprs {
		s[i] = x.String()
	}
	return dataflow.Info{Kind: "Map", Detail: strings.Join(s, ", "), State: "none", Cost: "O(change)"}
}

// State is empty.
func (m *Map) State() dataflow.StateSize { return dataflow.StateSize{} }
