package exec

import (
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// setOp evaluates INTERSECT [ALL] and EXCEPT [ALL] by counting each
// distinct row on both sides; output follows the left side's order.
func setOp(n *plan.SetOp, src Source) ([]value.Row, error) {
	left, err := Run(n.Left, src)
	if err != nil {
		return nil, err
	}
	right, err := Run(n.Right, src)
	if err != nil {
		return nil, err
	}
	rc := map[string]int64{}
	var buf []byte
	for _, r := range right {
		buf = value.AppendRowKey(buf[:0], r)
		rc[string(buf)]++
	}
	emitted := map[string]int64{}
	var out []value.Row
	for _, l := range left {
		buf = value.AppendRowKey(buf[:0], l)
		k := string(buf)
		r := rc[k]
		var ok bool
		switch n.Kind {
		case plan.Intersect:
			ok = r > 0 && emitted[k] == 0
		case plan.IntersectAll:
			ok = emitted[k] < r
		case plan.Except:
			ok = r == 0 && emitted[k] == 0
		case plan.ExceptAll:
			// The first r copies are removed.
			rc[k]--
			ok = r <= 0
		}
		if ok {
			emitted[k]++
			out = append(out, l)
		}
	}
	return out, nil
}
