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
	out        zset.ZSet
	// slab, when set, is where the output rows are cut from (CutRows).
	slab *rowSlab
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
	return m
}

// CutRows makes the map cut its output rows from slabs of values
// (rowSlab), a hundred rows of a few columns an allocation, rather than
// allocate each. A row held anywhere keeps its whole slab alive: it is
// for a map whose reader keeps a bounded few of the rows it is given, a
// top-k of one partition that refills from its relation's index, which
// drops nearly every row after a comparison and keeps at most its window
// and reserve (and its view, the window), so that the slabs kept alive
// are as few.
func (m *Map) CutRows() { m.slab = &rowSlab{} }

// Step maps every entry, then consolidates. It allocates one row per entry
// (or cuts it from a slab: CutRows).
func (m *Map) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatchN(m.out, len(in[0]))
	m.out = nil
	for j, e := range in[0] {
		dataflow.TouchRows(in[0], j)
		var r value.Row
		if m.slab != nil {
			r = m.slab.row(len(m.exprs))
		} else {
			r = make(value.Row, len(m.exprs))
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
				return nil, err
			}
			r[i] = v
		}
		out = append(out, zset.Entry{Row: r, W: e.W})
	}
	if m.keepsFirst {
		out = zset.ConsolidateByFirst(out)
	} else {
		out = zset.Consolidate(out)
	}
	m.out = out
	return out, nil
}

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
