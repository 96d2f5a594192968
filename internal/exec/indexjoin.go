package exec

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Sizer is a Source that knows how many rows a relation holds, which
// lets a join read a large relation through an index instead of whole.
type Sizer interface {
	// RelationSize returns the number of rows of relation, or false
	// when it does not know them.
	RelationSize(relation string) (int, bool)
}

// probeCost is what a lookup through an index costs in rows read by a
// scan: a join looks up its left rows' keys when they are fewer than the
// right relation's rows over probeCost.
const probeCost = 16

// indexedRight reads the right side of n, a relation or a filter over
// one, through an index of the relation on the right keys, for the
// distinct keys of the left rows only: the rows and index that join
// builds by reading the whole side, holding just the rows that can match.
// It reports false, having read nothing, when the join's kind needs every
// right row (right and full joins, NOT IN), the right keys are not the
// relation's columns of the left keys' types, the left keys are not few
// beside the relation's rows, or src has no index to find them.
func indexedRight(n *plan.Join, left []value.Row, src Source) ([]value.Row, map[string][]int, bool, error) {
	fs, ok := src.(FilteredSource)
	if !ok || len(n.RightKeys) == 0 {
		return nil, nil, false, nil
	}
	switch n.Kind {
	case plan.InnerJoin, plan.LeftJoin, plan.SemiJoin, plan.AntiJoin:
	default:
		return nil, nil, false, nil
	}
	scan, _ := n.Right.(*plan.Scan)
	var filter expr.Expr
	if f, ok := n.Right.(*plan.Filter); ok {
		scan, _ = f.Input.(*plan.Scan)
		filter = f.Pred
	}
	if scan == nil {
		return nil, nil, false, nil
	}
	cols := make([]*expr.Col, len(n.RightKeys))
	for i, k := range n.RightKeys {
		c := keyColumn(k)
		if c == nil || n.LeftKeys[i].Volatile() {
			return nil, nil, false, nil
		}
		cols[i] = c
	}
	size, ok := sizeOf(src, scan.Relation)
	if !ok {
		return nil, nil, false, nil
	}
	// The distinct keys, in the order the left rows first hold them.
	type key struct {
		enc  string
		vals []value.Value
	}
	var keys []key
	seen := map[string]bool{}
	var buf []byte
	for _, l := range left {
		k, ok, err := keyOf(buf[:0], n.LeftKeys, l)
		if err != nil {
			return nil, nil, false, err
		}
		if !ok || seen[string(k)] {
			continue
		}
		if (len(keys)+1)*probeCost > size {
			return nil, nil, false, nil
		}
		seen[string(k)] = true
		vals := make([]value.Value, len(cols))
		for i, e := range n.LeftKeys {
			vals[i], _ = e.Eval(l) // keyOf evaluated it without error
		}
		keys = append(keys, key{string(k), vals})
	}
	var right []value.Row
	index := make(map[string][]int, len(keys))
	b := budgetOf(src)
	for _, k := range keys {
		conds := make([]expr.Expr, 0, len(cols)+1)
		for i, c := range cols {
			conds = append(conds, &expr.Cmp{Op: expr.EQ, L: c, R: &expr.Const{V: k.vals[i], T: n.LeftKeys[i].Type()}})
		}
		if filter != nil {
			conds = append(conds, filter)
		}
		var pred expr.Expr = &expr.And{Args: conds}
		if len(conds) == 1 {
			pred = conds[0]
		}
		handled, err := fs.ScanFiltered(scan.Relation, pred, func(r value.Row) error {
			index[k.enc] = append(index[k.enc], len(right))
			right = append(right, r)
			return b.charge(slotBytes)
		})
		if err != nil || !handled {
			return nil, nil, false, err
		}
	}
	return right, index, true, nil
}

// keyColumn returns the relation's column a right key is, directly or
// widened from one integer type to another (an int column joined with a
// bigint one): equal to a key's value exactly when the column is. Nil for
// any other key.
func keyColumn(k expr.Expr) *expr.Col {
	if c, ok := k.(*expr.Cast); ok && c.To.Kind.IsInteger() {
		if col, ok := c.E.(*expr.Col); ok && col.T.Kind.IsInteger() {
			return col
		}
		return nil
	}
	c, _ := k.(*expr.Col)
	return c
}

// sizeOf returns RelationSize of the Sizer under src's wrappers.
func sizeOf(src Source, relation string) (int, bool) {
	for {
		switch s := src.(type) {
		case Sizer:
			return s.RelationSize(relation)
		case *Budget:
			src = s.Source
		case *Returning:
			src = s.Source
		case *Targets:
			src = s.Source
		case *working:
			src = s.Source
		default:
			return 0, false
		}
	}
}
