package engine

import (
	"math"
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// keyTarget finds the rows an UPDATE or DELETE without FROM can touch
// through an index, when its WHERE gives one something to find (see
// accessPath): in row id order, the order of a scan. The rows are those
// the index finds; the caller still applies the WHERE. usable is false
// when no index applies.
func keyTarget(t *table, where expr.Expr) (ts []target, usable bool, err error) {
	p, err := t.accessPath(where)
	if err != nil || p == nil {
		return nil, false, err
	}
	t.eachOnPath(p, func(id uint64, row value.Row) bool {
		ts = append(ts, target{id: id, row: row, env: row})
		return true
	})
	return ts, true, nil
}

// fixedColumns returns the values that where's conjuncts column = constant
// (or parameter) fix, by column, nil when there are none. A value of
// another integer type than its column's is converted when it fits (an
// integer that does not fit is equal to no value of the column, and is
// left to the WHERE); values of other types must have the column's type,
// since index keys are typed.
func fixedColumns(cols []plan.Column, where expr.Expr) (map[int]value.Value, error) {
	if where == nil {
		return nil, nil
	}
	var fixed map[int]value.Value
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
		if col.Idx >= len(cols) {
			continue
		}
		v, ok, err := constantFor(cols[col.Idx].Type.Kind, other)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if fixed == nil {
			fixed = map[int]value.Value{}
		}
		fixed[col.Idx] = v
	}
	return fixed, nil
}

func intFits(k value.Kind, n int64) bool {
	switch k {
	case value.Int2:
		return n >= math.MinInt16 && n <= math.MaxInt16
	case value.Int4:
		return n >= math.MinInt32 && n <= math.MaxInt32
	}
	return true
}

// eachByPrefix calls fn with the rows whose column col is v, found through
// the prefix index of col, in row id order, until fn returns false; a
// NULL v matches nothing, as '=' does.
func (t *table) eachByPrefix(col int, v value.Value, fn func(id uint64, row value.Row) bool) {
	if v.IsNull() {
		return
	}
	var ids []uint64
	t.prefix(col).each(v, func(id uint64) { ids = append(ids, id) })
	slices.Sort(ids)
	for _, id := range ids {
		row, _ := t.rows.Get(id)
		if !fn(id, row) {
			return
		}
	}
}
