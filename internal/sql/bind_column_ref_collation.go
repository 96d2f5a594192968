package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// columnCollated applies to a reference e of a table's column the ICU
// collation the column declares (scopeCol.coll), with implicit strength:
// the stored values carry none (a table keeps its strings uncollated), so
// the collation comes from the reference, as PostgreSQL's column
// references take the column's. Any other reference is returned as it is.
// Under a nondeterministic one a view's groups and distinct rows show
// the first spelling a row of theirs has (value.CompareRepr). A
// reference of a string column without one keeps its position, where a
// conflict of its byte-wise collation is reported (scopedCollation).
func (b *binder) columnCollated(s *scope, e expr.Expr, loc int32) (expr.Expr, error) {
	var sc *scopeCol
	switch c := e.(type) {
	case *expr.Col:
		if c.Idx < len(s.cols) {
			sc = &s.cols[c.Idx]
		}
	case *expr.Outer:
		if d := c.Depth - 1; d >= 0 && d < len(b.outers) && c.Idx < len(b.outers[d].cols) {
			sc = &b.outers[d].cols[c.Idx]
		}
	}
	if sc == nil || sc.coll == 0 {
		if c, ok := e.(*expr.Col); ok && sc != nil && collatable(c.T.Kind) {
			if b.bytewiseRefs == nil {
				b.bytewiseRefs = map[*expr.Col]int32{}
			}
			b.bytewiseRefs[c] = loc
		}
		return e, nil
	}
	coll := value.CollationByID(sc.coll)
	if coll == nil {
		return e, nil
	}
	return &expr.Collate{E: e, ID: coll.ID, Name: coll.Name, Implicit: true, Loc: loc}, nil
}
