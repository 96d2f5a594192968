package op

import (
	"strings"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// FlatMap keeps no state: it expands each input row into the rows of
// set-returning functions over it (unnest(a), generate_subscripts(a, 1),
// zipped as ROWS FROM zips them, then numbered WITH ORDINALITY), each
// after the input row's columns and with its weight. A retraction of the
// row retracts exactly the rows its assertion produced, since the
// functions are deterministic.
type FlatMap struct {
	funcs      []*expr.SRF
	ordinality bool
	width      int // the functions' columns, the ordinal included
	out        zset.ZSet
}

var _ dataflow.Operator = (*FlatMap)(nil)

// NewFlatMap returns a FlatMap of funcs, whose columns number width (the
// ordinal's included when ordinality).
func NewFlatMap(funcs []*expr.SRF, ordinality bool, width int) *FlatMap {
	return &FlatMap{funcs: funcs, ordinality: ordinality, width: width}
}

// Step expands every entry, then consolidates. It allocates one row per
// output row.
func (m *FlatMap) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatchN(m.out, len(in[0]))
	m.out = nil
	for _, e := range in[0] {
		first := len(out)
		col := len(e.Row)
		for _, f := range m.funcs {
			i := first
			err := f.Run(e.Row, func(r value.Row) error {
				if i == len(out) {
					nr := make(value.Row, len(e.Row)+m.width)
					copy(nr, e.Row)
					out = append(out, zset.Entry{Row: nr, W: e.W})
				}
				copy(out[i].Row[col:], r)
				i++
				return nil
			})
			if err != nil {
				clear(out)
				m.out = out[:0]
				return nil, err
			}
			col += len(f.Cols)
		}
		if m.ordinality {
			for i := first; i < len(out); i++ {
				out[i].Row[len(out[i].Row)-1] = value.NewInt(value.Int8, int64(i-first+1))
			}
		}
	}
	out = zset.Consolidate(out)
	m.out = out
	return out, nil
}

// Commit does nothing: FlatMap has no state.
func (m *FlatMap) Commit() {}

// Abort does nothing: FlatMap has no state.
func (m *FlatMap) Abort() {}

// Info describes the expansion: its functions.
func (m *FlatMap) Info() dataflow.Info {
	s := make([]string, len(m.funcs))
	for i, f := range m.funcs {
		s[i] = f.String()
	}
	d := strings.Join(s, ", ")
	if m.ordinality {
		d += " WITH ORDINALITY"
	}
	return dataflow.Info{Kind: "FlatMap", Detail: d, State: "none", Cost: "O(change × rows per input row)"}
}

// State is empty.
func (m *FlatMap) State() dataflow.StateSize { return dataflow.StateSize{} }
