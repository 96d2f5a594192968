package engine

import (
	"math"
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// keyTarget finds the rows an UPDATE or DELETE without FROM can touch
// when its WHERE fixes every column of a primary key or UNIQUE constraint,
// or the leading column of a composite one, with equalities to constants
// or parameters (… WHERE id = 42 AND …): found through an index instead
// of a scan, in row id order, the order of a scan. The rows are those the
// index finds; the caller still applies the WHERE. usable is false when no
// index applies.
func keyTarget(t *table, where expr.Expr) (ts []target, usable bool, err error) {
	fixed, err := fixedColumns(t.cols, where)
	if err != nil || fixed == nil {
		return nil, false, err
	}
	usable = t.lookup(fixed, func(id uint64, row value.Row) bool {
		ts = append(ts, target{id: id, row: row, env: row})
		return true
	})
	return ts, usable, nil
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
		if col.Idx >= len(cols) || len(expr.Columns(other)) > 0 || other.Volatile() {
			continue
		}
		want, have := cols[col.Idx].Type.Kind, other.Type().Kind
		if have != want && !(have.IsInteger() && want.IsInteger()) {
			continue
		}
		v, err := other.Eval(nil)
		if err != nil {
			return nil, err
		}
		if !v.IsNull() && v.Kind() != want {
			if !intFits(want, v.Int()) {
				continue
			}
			v = value.NewInt(want, v.Int())
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

// lookup calls fn, in row id order, for the rows whose columns equal the
// fixed values of a whole primary or unique key (at most one row), or
// else of the leading column of a composite one (through its prefix
// index, built on first use). It returns false, without calling fn, when
// no index applies. The rows found may differ from fixed in columns the
// index does not cover: the caller filters them.
func (t *table) lookup(fixed map[int]value.Value, fn func(id uint64, row value.Row) bool) bool {
	for _, u := range t.uniques {
		complete := true
		for _, c := range u.cols {
			if _, ok := fixed[c]; !ok {
				complete = false
				break
			}
		}
		if !complete {
			continue
		}
		probe := make(value.Row, len(t.cols))
		for _, c := range u.cols {
			probe[c] = fixed[c]
		}
		if id, row, ok := t.byKey(u, probe); ok { // a NULL in the key matches nothing, as '=' does
			fn(id, row)
		}
		return true
	}
	for _, u := range t.uniques {
		v, ok := fixed[u.cols[0]]
		if len(u.cols) < 2 || !ok {
			continue
		}
		t.eachByPrefix(u.cols[0], v, fn)
		return true
	}
	for _, ix := range t.indexes {
		if v, ok := fixed[ix.cols[0]]; ok {
			t.eachByPrefix(ix.cols[0], v, fn)
			return true
		}
	}
	return false
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
