package exec

import (
	"slices"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// topK keeps, per partition, the rows at positions Offset+1 … Offset+Limit
// of the order, ties broken by the whole row as the maintained operator
// breaks them.
func topK(n *plan.TopK, src Source) ([]value.Row, error) {
	input := n.Input
	if w := domainLimit(n); w > 0 && n.Limit < 1<<62 {
		// A correlated subquery's LIMIT over a recursion: each outer
		// value's recursion reads no further than the LIMIT needs.
		input = stopDomainRecursion(input, n.Offset+n.Limit, w)
	}
	in, err := Run(input, src)
	if err != nil {
		return nil, err
	}
	parts, err := partitionSorted(n, in)
	if err != nil {
		return nil, err
	}
	var out []value.Row
	for _, rows := range parts {
		lo := min(n.Offset, int64(len(rows)))
		hi := min(lo+n.Limit, int64(len(rows)))
		out = append(out, rows[lo:hi]...)
	}
	return out, nil
}

// partitionSorted splits rows by n's partition key, in order of first
// appearance, and sorts each partition by n's order, ties broken by the
// whole row.
func partitionSorted(n *plan.TopK, in []value.Row) ([][]value.Row, error) {
	type keyed struct {
		row  value.Row
		keys []value.Value
	}
	parts := map[string][]keyed{}
	var order []string
	var buf []byte
	for _, r := range in {
		buf = buf[:0]
		for _, p := range n.Partition {
			v, err := p.Eval(r)
			if err != nil {
				return nil, err
			}
			buf = value.AppendKey(buf, v)
		}
		k := make([]value.Value, len(n.Order))
		for i, o := range n.Order {
			var err error
			if k[i], err = o.Expr.Eval(r); err != nil {
				return nil, err
			}
		}
		if _, ok := parts[string(buf)]; !ok {
			order = append(order, string(buf))
		}
		parts[string(buf)] = append(parts[string(buf)], keyed{r, k})
	}
	out := make([][]value.Row, len(order))
	for i, p := range order {
		rows := parts[p]
		slices.SortFunc(rows, func(a, b keyed) int {
			for i, o := range n.Order {
				if c := CompareKey(a.keys[i], b.keys[i], o.Desc, o.NullsFirst); c != 0 {
					return c
				}
			}
			return value.CompareRows(a.row, b.row)
		})
		out[i] = make([]value.Row, len(rows))
		for j, r := range rows {
			out[i][j] = r.row
		}
	}
	return out, nil
}
