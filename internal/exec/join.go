package exec

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// join evaluates a join by hashing the right side on its keys (or pairing
// every row when there are none), or, when the left side's keys are few,
// by finding their matches through an index (indexedRight).
func join(n *plan.Join, src Source) ([]value.Row, error) {
	left, err := Run(n.Left, src)
	if err != nil {
		return nil, err
	}
	right, index, indexed, err := indexedRight(n, left, src)
	if err != nil {
		return nil, err
	}
	rightHasNullKey := false
	var buf []byte
	if !indexed {
		if right, err = Run(n.Right, src); err != nil {
			return nil, err
		}
		index = map[string][]int{}
		for i, r := range right {
			k, ok, err := keyOf(buf[:0], n.RightKeys, r)
			if err != nil {
				return nil, err
			}
			if !ok {
				rightHasNullKey = true
				continue
			}
			index[string(k)] = append(index[string(k)], i)
		}
	}
	lw, rw := len(n.Left.Columns()), len(n.Right.Columns())
	rightMatched := make([]bool, len(right))
	var out []value.Row
	b := budgetOf(src)
	pair := make(value.Row, lw+rw)
	for _, l := range left {
		k, ok, err := keyOf(buf[:0], n.LeftKeys, l)
		if err != nil {
			return nil, err
		}
		var cands []int
		if len(n.LeftKeys) == 0 {
			cands = allIndexes(len(right))
		} else if ok {
			cands = index[string(k)]
		}
		matched := false
		for _, ri := range cands {
			if err := b.poll(); err != nil { // pairs the residual drops
				return nil, err
			}
			copy(pair, l)
			copy(pair[lw:], right[ri])
			pass, err := accepts(n.Residual, pair)
			if err != nil {
				return nil, err
			}
			if !pass {
				continue
			}
			matched = true
			rightMatched[ri] = true
			if n.Kind.Outputs() {
				if err := b.charge(rowBytes(len(pair))); err != nil {
					return nil, err
				}
				out = append(out, slices.Clone(pair))
			} else {
				break
			}
		}
		switch n.Kind {
		case plan.LeftJoin, plan.FullJoin:
			if !matched {
				out = append(out, padRight(l, rw))
			}
		case plan.SemiJoin:
			if matched {
				out = append(out, l)
			}
		case plan.AntiJoin:
			if !matched {
				out = append(out, l)
			}
		case plan.AntiNullJoin:
			// NOT IN: TRUE only when nothing is equal and nothing unknown.
			// The binder only builds it without a residual.
			if len(right) == 0 || (!matched && ok && !rightHasNullKey) {
				out = append(out, l)
			}
		}
	}
	if n.Kind == plan.RightJoin || n.Kind == plan.FullJoin {
		for ri, r := range right {
			if !rightMatched[ri] {
				out = append(out, padLeft(r, lw))
			}
		}
	}
	return out, nil
}

func keyOf(buf []byte, keys []expr.Expr, r value.Row) ([]byte, bool, error) {
	for _, k := range keys {
		v, err := k.Eval(r)
		if err != nil {
			return nil, false, err
		}
		if v.IsNull() {
			return nil, false, nil
		}
		buf = value.AppendKey(buf, v)
	}
	return buf, true, nil
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func accepts(pred expr.Expr, r value.Row) (bool, error) {
	if pred == nil {
		return true, nil
	}
	v, err := pred.Eval(r)
	if err != nil {
		return false, err
	}
	return !v.IsNull() && v.Bool(), nil
}

func padRight(l value.Row, rw int) value.Row {
	out := make(value.Row, len(l)+rw)
	copy(out, l)
	return out
}

func padLeft(r value.Row, lw int) value.Row {
	out := make(value.Row, lw+len(r))
	copy(out[lw:], r)
	return out
}
