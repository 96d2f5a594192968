package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// arbiters returns the unique indexes ON CONFLICT's target names or
// infers, as PostgreSQL does: ON CONSTRAINT names a PRIMARY KEY or
// UNIQUE constraint (not an index); a list of columns and expressions
// infers every unique index whose key is that set, a partial one only
// when the target's WHERE holds each conjunct of its predicate. nil
// with no target: any unique index arbitrates.
func (t *table) arbiters(oc *sql.OnConflict) ([]*uniqueIndex, error) {
	if oc.Constraint != "" {
		for _, u := range t.uniques {
			if u.name == oc.Constraint && !u.madeByIndex(t) {
				return []*uniqueIndex{u}, nil
			}
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q for table %q does not exist", oc.Constraint, t.name)
	}
	if oc.Arbiter == nil {
		return nil, nil
	}
	var out []*uniqueIndex
	for _, u := range t.uniques {
		if u.x == nil && !slices.Contains(oc.Arbiter, -1) && sameCols(u.cols, oc.Arbiter) ||
			u.x != nil && inferred(u, oc) {
			out = append(out, u)
		}
	}
	for _, u := range t.xuniques {
		if inferred(u, oc) {
			out = append(out, u)
		}
	}
	if out == nil {
		return nil, pgerr.New(pgerr.InvalidColumnRef, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
	}
	return out, nil
}

// inferred reports whether ON CONFLICT's target infers u, an index with
// a keyExt: the same set of key elements, a column matching a column
// and an expression the same expression's text, and the predicate's
// conjuncts among the target's WHERE's.
func inferred(u *uniqueIndex, oc *sql.OnConflict) bool {
	elem := func(cols []int, texts []string, i int) string {
		if cols[i] >= 0 {
			return fmt.Sprint(cols[i])
		}
		return texts[i]
	}
	var want, have []string
	for i := range oc.Arbiter {
		want = append(want, elem(oc.Arbiter, oc.ArbiterSQL, i))
	}
	for i := range u.cols {
		have = append(have, elem(u.cols, u.x.keySQL, i))
	}
	slices.Sort(want)
	slices.Sort(have)
	if !slices.Equal(slices.Compact(want), slices.Compact(have)) {
		return false
	}
	if u.x.where == nil || !slices.ContainsFunc(u.x.whereConj, func(c string) bool { return !slices.Contains(oc.ArbiterWhere, c) }) {
		return true
	}
	hold := plan.Conjuncts(oc.ArbiterPred)
	for _, w := range plan.Conjuncts(u.x.where) {
		if !slices.ContainsFunc(hold, func(h expr.Expr) bool { return h.String() == w.String() || cmpImplies(h, w) }) {
			return false
		}
	}
	return true
}

// cmpImplies reports whether h, a comparison of a column with a
// constant, implies w, another of the same column, as PostgreSQL's
// predicate proof does for a btree's operators (a > 1 implies a > 0).
func cmpImplies(h, w expr.Expr) bool {
	hc, hv, ok := colConst(h)
	if !ok {
		return false
	}
	wc, wv, ok := colConst(w)
	if !ok || hc.L.(*expr.Col).Idx != wc.L.(*expr.Col).Idx {
		return false
	}
	c := value.Compare(hv, wv) // h's constant against w's
	switch wc.Op {
	case expr.EQ:
		return hc.Op == expr.EQ && c == 0
	case expr.GT:
		return hc.Op == expr.GT && c >= 0 || (hc.Op == expr.GE || hc.Op == expr.EQ) && c > 0
	case expr.GE:
		return (hc.Op == expr.GT || hc.Op == expr.GE || hc.Op == expr.EQ) && c >= 0
	case expr.LT:
		return hc.Op == expr.LT && c <= 0 || (hc.Op == expr.LE || hc.Op == expr.EQ) && c < 0
	case expr.LE:
		return (hc.Op == expr.LT || hc.Op == expr.LE || hc.Op == expr.EQ) && c <= 0
	case expr.NE:
		return hc.Op == expr.EQ && c != 0 || hc.Op == expr.GT && c >= 0 || hc.Op == expr.GE && c > 0 ||
			hc.Op == expr.LT && c <= 0 || hc.Op == expr.LE && c < 0
	}
	return false
}

// colConst returns e as a comparison of a column with a non-NULL
// constant of a numeric kind, the column on the left.
func colConst(e expr.Expr) (*expr.Cmp, value.Value, bool) {
	c, ok := e.(*expr.Cmp)
	if !ok {
		return nil, value.Value{}, false
	}
	if _, ok := c.L.(*expr.Col); !ok {
		return nil, value.Value{}, false
	}
	k, ok := c.R.(*expr.Const)
	if !ok || k.V.IsNull() || !k.V.Kind().IsNumeric() {
		return nil, value.Value{}, false
	}
	return c, k.V, true
}
