package plan

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
)

// Keys returns column sets of n's output that no two of its rows share, as
// far as n's form shows: a relation's keys (uniques gives them, columns
// that are never NULL) through filters, projections of their columns,
// ordering and limits; an aggregate's group key; across an inner join,
// the keys of one side when the join's equalities cover a key of the
// other (each row of the first side then meets at most one row of the
// second), and otherwise a key of each side together; across a left join
// whose right side is met on a key, the left side's keys; the left side's
// keys across a semi or anti join. Shortest sets first. A view's maintained
// rows are hashed by such a key (op.Integrate.KeyBy); nothing relies on
// it for meaning. It keeps no state.
func Keys(n Node, uniques func(relation string) [][]int) [][]int {
	ks := keysOf(n, uniques)
	slices.SortStableFunc(ks, func(a, b []int) int { return len(a) - len(b) })
	return ks
}

func keysOf(n Node, uniques func(string) [][]int) [][]int {
	switch x := n.(type) {
	case *Scan:
		return uniques(x.Relation)
	case *Filter:
		return keysOf(x.Input, uniques)
	case *Sort:
		return keysOf(x.Input, uniques)
	case *Limit:
		return keysOf(x.Input, uniques)
	case *TopK:
		return keysOf(x.Input, uniques)
	case *Project:
		return projectKeys(keysOf(x.Input, uniques), x.Exprs)
	case *Aggregate:
		if len(x.GroupBy) == 0 {
			return nil // one row: nothing to hash by
		}
		k := make([]int, len(x.GroupBy))
		for i := range k {
			k[i] = i
		}
		return [][]int{k}
	case *Join:
		return joinKeys(x, uniques)
	}
	return nil
}

// joinKeys is keysOf for a join.
func joinKeys(j *Join, uniques func(string) [][]int) [][]int {
	left := keysOf(j.Left, uniques)
	if !j.Kind.Outputs() {
		return left
	}
	if j.Kind != InnerJoin && j.Kind != LeftJoin {
		return nil
	}
	right := keysOf(j.Right, uniques)
	rightMet := covers(j.RightKeys, right)
	if j.Kind == LeftJoin {
		if rightMet {
			return left
		}
		return nil
	}
	off := len(j.Left.Columns())
	shift := func(k []int) []int {
		s := make([]int, len(k))
		for i, c := range k {
			s[i] = c + off
		}
		return s
	}
	var out [][]int
	if rightMet {
		out = append(out, left...)
	}
	if covers(j.LeftKeys, left) {
		for _, k := range right {
			out = append(out, shift(k))
		}
	}
	if len(out) == 0 && len(left) > 0 && len(right) > 0 {
		out = append(out, append(slices.Clone(left[0]), shift(right[0])...))
	}
	return out
}

// covers reports whether the plain columns among a join's keys on one
// side include every column of one of that side's keys.
func covers(on []expr.Expr, keys [][]int) bool {
	for _, k := range keys {
		if len(k) > 0 && !slices.ContainsFunc(k, func(c int) bool {
			return !slices.ContainsFunc(on, func(e expr.Expr) bool {
				col, ok := e.(*expr.Col)
				return ok && col.Idx == c
			})
		}) {
			return true
		}
	}
	return false
}

// projectKeys returns the keys of a projection's input (column sets)
// whose columns the projection exprs passes on unchanged, in its output's
// columns.
func projectKeys(keys [][]int, exprs []expr.Expr) [][]int {
	var out [][]int
keys:
	for _, k := range keys {
		m := make([]int, 0, len(k))
		for _, c := range k {
			at := slices.IndexFunc(exprs, func(e expr.Expr) bool {
				col, ok := e.(*expr.Col)
				return ok && col.Idx == c
			})
			if at < 0 {
				continue keys
			}
			m = append(m, at)
		}
		out = append(out, m)
	}
	return out
}
