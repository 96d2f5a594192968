package exec

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Targets is a Source that also supplies the rows plan.Target reads: Rows
// calls fn for each row that pred (nil for every row) accepts, in the
// statement's order, so that a source with an index finds them without
// reading every row. Lookup, when set, is Rows through an index only: it
// returns handled false, without calling fn, when no index finds the
// rows pred accepts; a join finds the matches of a few keys through it
// (indexedRight). The rows fn receives are the caller's to keep.
type Targets struct {
	Source
	Rows   func(pred expr.Expr, fn func(value.Row) error) error
	Lookup func(pred expr.Expr, fn func(value.Row) error) (handled bool, err error)
}

var _ FilteredSource = (*Targets)(nil)

// ScanFiltered is the source's: the supplied rows do not hide an access
// path.
func (t *Targets) ScanFiltered(relation string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	if fs, ok := t.Source.(FilteredSource); ok {
		return fs.ScanFiltered(relation, pred, fn)
	}
	return false, nil
}

// targetRows returns the rows src's Targets supplies that pred accepts;
// under a probing source, through its Lookup, or errNoPath.
func targetRows(src Source, pred expr.Expr) ([]value.Row, error) {
	b := budgetOf(src)
	probe := false
	for {
		switch s := src.(type) {
		case *Targets:
			var out []value.Row
			add := func(r value.Row) error {
				out = append(out, r)
				return b.charge(slotBytes)
			}
			if !probe {
				return out, s.Rows(pred, add)
			}
			if s.Lookup == nil {
				return nil, errNoPath
			}
			handled, err := s.Lookup(pred, add)
			if err == nil && !handled {
				err = errNoPath
			}
			return out, err
		case *probing:
			probe = true
			src = s.Source
		case *Budget:
			src = s.Source
		case *working:
			src = s.Source
		case *Returning:
			src = s.Source
		case profiler:
			src = s.profile().Source
		default:
			return nil, pgerr.New(pgerr.Internal, "exec: the rows of the statement's table are not available")
		}
	}
}
