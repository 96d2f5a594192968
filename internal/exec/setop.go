package exec

import (
	"slices"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// setOp evaluates INTERSECT [ALL] and EXCEPT [ALL] by counting each
// distinct row on both sides; output follows the left side's order. Of
// equal rows printed differently, each output row shows the first
// representation (value.CompareRepr) on the left, as the maintained
// view's.
func setOp(n *plan.SetOp, src Source) ([]value.Row, error) {
	left, err := Run(n.Left, src)
	if err != nil {
		return nil, err
	}
	right, err := Run(n.Right, src)
	if err != nil {
		return nil, err
	}
	if o := newRecordOrder(columnTypes(n.Cols)); o != nil {
		all := append(slices.Clone(left), right...)
		slices.SortFunc(all, value.CompareRows)
		if err := o.sorted(all); err != nil {
			return nil, err
		}
	}
	rc := map[string]int64{}
	var buf []byte
	for _, r := range right {
		buf = value.AppendRowKey(buf[:0], r)
		rc[string(buf)]++
	}
	type group struct {
		rep value.Row
		n   int64
	}
	byKey := map[string]*group{}
	var order []string
	for _, l := range left {
		buf = value.AppendRowKey(buf[:0], l)
		g := byKey[string(buf)]
		switch {
		case g == nil:
			g = &group{rep: l}
			byKey[string(buf)] = g
			order = append(order, string(buf))
		case value.CompareRowsExact(l, g.rep) < 0:
			g.rep = l
		}
		g.n++
	}
	var out []value.Row
	for _, k := range order {
		g, r := byKey[k], rc[k]
		var m int64
		switch n.Kind {
		case plan.Intersect:
			m = min(r, 1)
		case plan.IntersectAll:
			m = min(g.n, r)
		case plan.Except:
			m = 1 - min(r, 1)
		case plan.ExceptAll:
			m = max(g.n-r, 0)
		}
		for range m {
			out = append(out, g.rep)
		}
	}
	return out, nil
}
