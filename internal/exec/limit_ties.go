package exec

import (
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// tiesEnd is where FETCH FIRST n ROWS WITH TIES stops in rows, sorted by
// keys: after the first n, and after every row that follows them equal to
// the n-th on keys (its peers, as PostgreSQL's sort operators see them).
// Without keys (plain LIMIT) it is n.
func tiesEnd(rows []value.Row, n int, keys []plan.SortKey) (int, error) {
	if len(keys) == 0 || n == 0 {
		return n, nil
	}
	last := make([]value.Value, len(keys))
	for j, k := range keys {
		v, err := k.Expr.Eval(rows[n-1])
		if err != nil {
			return 0, err
		}
		last[j] = v
	}
	for ; n < len(rows); n++ {
		for j, k := range keys {
			v, err := k.Expr.Eval(rows[n])
			if err != nil {
				return 0, err
			}
			if CompareKey(v, last[j], k.Desc, k.NullsFirst) != 0 {
				return n, nil
			}
		}
	}
	return n, nil
}
