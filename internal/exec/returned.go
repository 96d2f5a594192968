package exec

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Returning is a Source that also holds the rows the data-modifying WITH
// items of a statement returned, which plan.Returned reads: Rows[i] are
// item i's, nil until the item has run. Run never changes them.
type Returning struct {
	Source
	Rows [][]value.Row
}

var _ FilteredSource = (*Returning)(nil)

// ScanFiltered is the source's: the items' rows do not hide an access
// path.
func (r *Returning) ScanFiltered(relation string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	if fs, ok := r.Source.(FilteredSource); ok {
		return fs.ScanFiltered(relation, pred, fn)
	}
	return false, nil
}

// returnedRows returns a copy of the rows item returned, as src holds
// them.
func returnedRows(src Source, item int, name string) ([]value.Row, error) {
	b := budgetOf(src)
	for {
		switch s := src.(type) {
		case *Returning:
			if item < len(s.Rows) {
				if err := b.charge(int64(len(s.Rows[item])) * slotBytes); err != nil {
					return nil, err
				}
				return slices.Clone(s.Rows[item]), nil
			}
			src = s.Source
		case *Budget:
			src = s.Source
		case *Targets:
			src = s.Source
		case *working:
			src = s.Source
		case profiler:
			src = s.profile().Source
		default:
			return nil, pgerr.New(pgerr.Internal, "exec: the rows of WITH query %q are not available", name)
		}
	}
}
