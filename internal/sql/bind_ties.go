package sql

import (
	"fmt"
	"math"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
)

// viewWithTies binds a view's ORDER BY keys FETCH FIRST limit ROWS WITH
// TIES over in: the rows whose keys are among the keys of the first limit
// rows, which are the first limit rows and the rows that tie with the
// last of them. It is a semi-join of in with the distinct keys of a TopK
// of in (NULL keys matching NULL, as the sort puts them together):
//
//	SELECT * FROM in WHERE (keys) IS NOT DISTINCT FROM ANY
//	  (SELECT DISTINCT keys FROM (in ORDER BY keys LIMIT limit))
//
// so a change costs the TopK's O(log n) plus, when the set of keys kept
// changes, the rows of in that hold the key that came or went.
func (b *binder) viewWithTies(in plan.Node, keys []plan.SortKey, limit int64) plan.Node {
	top := &plan.TopK{Input: in, Order: keys, Limit: limit}
	exprs := make([]expr.Expr, len(keys))
	cols := make([]plan.Column, len(keys))
	for i, k := range keys {
		exprs[i] = k.Expr
		cols[i] = plan.Column{Name: fmt.Sprintf("?tie%d?", i+1), Type: k.Expr.Type()}
	}
	kept := &plan.Distinct{Input: &plan.Project{Input: top, Exprs: exprs, Cols: cols}}
	j := &plan.Join{Kind: plan.SemiJoin, Left: in, Right: kept, Cols: in.Columns()}
	for i, k := range keys {
		lk, rk := plan.NullSafeKeys(k.Expr, &expr.Col{Idx: i, T: cols[i].Type, Name: cols[i].Name})
		j.LeftKeys = append(j.LeftKeys, lk...)
		j.RightKeys = append(j.RightKeys, rk...)
	}
	return j
}

// viewWithTiesOffset binds a view's ORDER BY keys OFFSET offset FETCH
// FIRST limit ROWS WITH TIES over in: the rows of the first offset+limit
// with their ties, less the first offset rows,
//
//	(in ORDER BY keys FETCH FIRST offset+limit ROWS WITH TIES)
//	EXCEPT ALL (in ORDER BY keys LIMIT offset)
//
// The first offset rows are among the others (their keys are at most the
// last kept), so the EXCEPT ALL takes exactly them out. Rows that tie
// across the offset are skipped in the order of the whole row, as a
// view's LIMIT … OFFSET skips them, where PostgreSQL's order among them
// is unspecified. A change costs the two TopKs' O(log n), the semi-join's
// rows of a key that came or went, and the counts of the EXCEPT ALL.
func (b *binder) viewWithTiesOffset(in plan.Node, keys []plan.SortKey, limit, offset int64) plan.Node {
	if limit == 0 || offset == 0 {
		return b.viewWithTies(in, keys, limit)
	}
	all := b.viewWithTies(in, keys, min(limit, math.MaxInt64-offset)+offset)
	skipped := &plan.TopK{Input: in, Order: keys, Limit: offset}
	return &plan.SetOp{Kind: plan.ExceptAll, Left: all, Right: skipped, Cols: in.Columns()}
}
