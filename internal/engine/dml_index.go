package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// keyTarget finds the rows an UPDATE or DELETE without FROM can touch
// when its WHERE fixes every column of a primary key or UNIQUE constraint
// with equalities to constants (… WHERE id = 42 AND …): at most one row,
// found through the index instead of a scan. usable is false when the
// WHERE has no such equalities.
func keyTarget(t *table, where expr.Expr) (id uint64, row value.Row, found, usable bool, err error) {
	if where == nil || len(t.uniques) == 0 {
		return 0, nil, false, false, nil
	}
	fixed := map[int]value.Value{}
	for _, c := range plan.Conjuncts(where) {
		cmp, ok := c.(*expr.Cmp)
		if !ok || cmp.Op != expr.EQ {
			continue
		}
		col, ok := cmp.L.(*expr.Col)
		other := cmp.R
		if !ok {
			if col, ok = cmp.R.(*expr.Col); !ok {
				continue
			}
			other = cmp.L
		}
		if len(expr.Columns(other)) > 0 || other.Volatile() || other.Type().Kind != t.cols[col.Idx].Type.Kind {
			continue
		}
		v, err := other.Eval(nil)
		if err != nil {
			return 0, nil, false, false, err
		}
		fixed[col.Idx] = v
	}
	for _, u := range t.uniques {
		probe := make(value.Row, len(t.cols))
		complete := true
		for _, c := range u.cols {
			v, ok := fixed[c]
			if !ok {
				complete = false
				break
			}
			probe[c] = v
		}
		if !complete {
			continue
		}
		id, row, ok := t.byKey(u, probe) // a NULL in the key matches nothing, as '=' does
		if !ok {
			return 0, nil, false, true, nil
		}
		return id, row, true, true, nil
	}
	return 0, nil, false, false, nil
}
