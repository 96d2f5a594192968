package exec

import (
	"errors"

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

// indexedRight evaluates the right side of n for the distinct keys of the
// left rows only, each through an index of the relation the side reads:
// the rows and index that join builds by reading the whole side, holding
// just the rows that can match. The side is a relation under filters,
// projections, aggregates grouped by the key columns and DISTINCT (a
// correlated subquery's aggregate: `(SELECT count(*) FROM items i WHERE
// i.order_id = o.id)`), whose key columns come from the relation's
// columns; a key restricts the relation's rows before the rest runs. The
// relation may be the table a running statement reads (plan.Target, as
// MERGE's join reads it), found through the Targets' Lookup.
//
// It reports false, having kept nothing, when the join's kind needs every
// right row (right and full joins, NOT IN), a right key is not such a
// column, the left keys are not few beside the relation's rows, or src
// has no index to find a key's rows.
func indexedRight(n *plan.Join, left []value.Row, src Source) ([]value.Row, map[string][]int, bool, error) {
	if _, ok := src.(FilteredSource); !ok || len(n.RightKeys) == 0 {
		return nil, nil, false, nil
	}
	switch n.Kind {
	case plan.InnerJoin, plan.LeftJoin, plan.SemiJoin, plan.AntiJoin:
	default:
		return nil, nil, false, nil
	}
	cols := make([]int, len(n.RightKeys))
	for i, k := range n.RightKeys {
		c := keyColumn(k)
		if c == nil || n.LeftKeys[i].Volatile() {
			return nil, nil, false, nil
		}
		cols[i] = c.Idx
	}
	rel := restrictedRelation(n.Right)
	if rel == "" {
		return nil, nil, false, nil
	}
	size, ok := sizeOf(src, rel)
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
	probe := &probing{Source: src, relation: rel}
	for _, k := range keys {
		vals := make([]expr.Expr, len(cols))
		for i, v := range k.vals {
			vals[i] = &expr.Const{V: v, T: n.LeftKeys[i].Type()}
		}
		sub := restrict(n.Right, cols, vals)
		if sub == nil {
			return nil, nil, false, nil
		}
		rows, err := Run(sub, probe)
		if errors.Is(err, errNoPath) {
			return nil, nil, false, nil
		}
		if err != nil {
			return nil, nil, false, err
		}
		for _, r := range rows {
			index[k.enc] = append(index[k.enc], len(right))
			right = append(right, r)
		}
	}
	return right, index, true, nil
}

// restrictedRelation returns the relation under n when n is a relation
// under nodes restrict passes a key through, "" otherwise.
func restrictedRelation(n plan.Node) string {
	for {
		switch x := n.(type) {
		case *plan.Scan:
			return x.Relation
		case *plan.Target:
			return x.Name
		case *plan.Filter:
			n = x.Input
		case *plan.Project:
			n = x.Input
		case *plan.Distinct:
			n = x.Input
		case *plan.Aggregate:
			n = x.Input
		default:
			return ""
		}
	}
}

// restrict returns n keeping only the rows whose columns cols equal
// vals, by a filter on the relation's columns they come from, under the
// nodes above it; nil when a column does not come from one (a computed
// column, an aggregate's result).
func restrict(n plan.Node, cols []int, vals []expr.Expr) plan.Node {
	switch x := n.(type) {
	case *plan.Scan:
		return &plan.Filter{Input: x, Pred: keyConds(x.Cols, cols, vals)}
	case *plan.Target:
		return &plan.Filter{Input: x, Pred: keyConds(x.Cols, cols, vals)}
	case *plan.Filter:
		in := restrict(x.Input, cols, vals)
		if in == nil {
			return nil
		}
		if f, ok := in.(*plan.Filter); ok {
			if isRelation(f.Input) {
				// One filter over the relation: its index sees every condition.
				return &plan.Filter{Input: f.Input, Pred: conjunction(append(plan.Conjuncts(x.Pred), plan.Conjuncts(f.Pred)...))}
			}
		}
		return &plan.Filter{Input: in, Pred: x.Pred}
	case *plan.Distinct:
		if in := restrict(x.Input, cols, vals); in != nil {
			return &plan.Distinct{Input: in}
		}
	case *plan.Project:
		under := make([]int, len(cols))
		for i, c := range cols {
			col := keyColumn(x.Exprs[c])
			if col == nil {
				return nil
			}
			under[i] = col.Idx
		}
		if in := restrict(x.Input, under, vals); in != nil {
			p := *x
			p.Input = in
			return &p
		}
	case *plan.Aggregate:
		under := make([]int, len(cols))
		for i, c := range cols {
			if c >= len(x.GroupBy) {
				return nil
			}
			col := keyColumn(x.GroupBy[c])
			if col == nil {
				return nil
			}
			under[i] = col.Idx
		}
		if in := restrict(x.Input, under, vals); in != nil {
			a := *x
			a.Input = in
			return &a
		}
	}
	return nil
}

// keyConds is the condition that columns cols of a relation's row, whose
// columns are rel, equal vals.
func keyConds(rel []plan.Column, cols []int, vals []expr.Expr) expr.Expr {
	conds := make([]expr.Expr, len(cols))
	for i, c := range cols {
		conds[i] = &expr.Cmp{Op: expr.EQ, L: &expr.Col{Idx: c, T: rel[c].Type, Name: rel[c].Name}, R: vals[i]}
	}
	return conjunction(conds)
}

// isRelation reports whether n reads a relation's rows: a stored
// relation's (Scan) or a running statement's table's (Target).
func isRelation(n plan.Node) bool {
	switch n.(type) {
	case *plan.Scan, *plan.Target:
		return true
	}
	return false
}

func conjunction(conds []expr.Expr) expr.Expr {
	if len(conds) == 1 {
		return conds[0]
	}
	return &expr.And{Args: conds}
}

// errNoPath is what a probing source's scan of its relation returns: the
// relation has no index for the key, and the join reads it whole instead.
var errNoPath = errors.New("exec: no index for the key")

// probing is the Source a join's right side runs on for one key: its
// relation is read through an index only.
type probing struct {
	Source
	relation string
}

func (p *probing) Scan(relation string, fn func(value.Row) error) error {
	if relation == p.relation {
		return errNoPath
	}
	return p.Source.Scan(relation, fn)
}

var _ FilteredSource = (*probing)(nil)

func (p *probing) ScanFiltered(relation string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	return p.Source.(FilteredSource).ScanFiltered(relation, pred, fn)
}

// keyColumn returns the column a key is, directly or widened from one
// integer type to another (an int column joined with a bigint one): equal
// to a key's value exactly when the column is. Nil for any other key.
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
		case profiler:
			src = s.profile().Source
		default:
			return 0, false
		}
	}
}
