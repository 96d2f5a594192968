// Package exec evaluates a logical plan once, from scratch, over stored
// relations. It serves ad-hoc queries, the sources of DML statements, and
// the from-scratch oracle that tests compare every maintained view with.
// It keeps no state between calls.
package exec

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Source reads stored relations.
type Source interface {
	// Scan calls fn for every row of the named relation, as many times as
	// the row occurs. fn must not keep or change the row's backing array
	// beyond the call unless the source documents otherwise. A source
	// that stores tables also answers plan.SystemRelation(table): the
	// table's rows, each followed by its row system columns.
	Scan(relation string, fn func(value.Row) error) error
}

// FilteredSource is a Source that can find the rows of a relation that a
// predicate accepts without reading every row (through an index on
// columns the predicate fixes).
type FilteredSource interface {
	Source
	// ScanFiltered calls fn for every row of relation that pred accepts,
	// in the order of Scan, and returns handled; or returns handled false,
	// without calling fn, when it has no faster way than Scan.
	ScanFiltered(relation string, pred expr.Expr, fn func(value.Row) error) (handled bool, err error)
}

// Run evaluates p and returns its rows. Rows are in the order the plan
// defines (Sort), otherwise in an unspecified but deterministic order.
func Run(p plan.Node, src Source) ([]value.Row, error) {
	if pr, ok := src.(profiler); ok {
		return runProfiled(p, src, pr.profile())
	}
	return run(p, src)
}

func run(p plan.Node, src Source) ([]value.Row, error) {
	switch n := p.(type) {
	case *plan.Scan:
		var out []value.Row
		b := budgetOf(src)
		err := src.Scan(n.Relation, func(r value.Row) error {
			out = append(out, r)
			return b.charge(slotBytes)
		})
		return out, err
	case *plan.Filter:
		if s := stopOuterLimit(n); s != n {
			return Run(s, src)
		}
		if in, ok := n.Input.(*plan.Filter); ok && isRelation(in.Input) && isPartitionOf(in.Pred) {
			// A WHERE over a partition's constraint (never NULL, so the
			// WHERE sees the rows it saw) is one filter, so that an index
			// sees every condition.
			return Run(&plan.Filter{Input: in.Input, Pred: conjunction(append(plan.Conjuncts(in.Pred), plan.Conjuncts(n.Pred)...))}, src)
		}
		if _, ok := n.Input.(*plan.Target); ok {
			return targetRows(src, n.Pred)
		}
		if sc, ok := n.Input.(*plan.Scan); ok {
			if fs, ok := src.(FilteredSource); ok {
				var out []value.Row
				b := budgetOf(src)
				handled, err := fs.ScanFiltered(sc.Relation, n.Pred, func(r value.Row) error {
					out = append(out, r)
					return b.charge(slotBytes)
				})
				if handled || err != nil {
					return out, err
				}
			}
		}
		in, err := Run(n.Input, src)
		if err != nil {
			return nil, err
		}
		out := in[:0:0]
		b := budgetOf(src)
		for _, r := range in {
			if err := b.charge(slotBytes); err != nil {
				return nil, err
			}
			v, err := n.Pred.Eval(r)
			if err != nil {
				return nil, err
			}
			if !v.IsNull() && v.Bool() {
				out = append(out, r)
			}
		}
		return out, nil
	case *plan.Project:
		in, err := Run(n.Input, src)
		if err != nil {
			return nil, err
		}
		if err := budgetOf(src).charge(int64(len(in)) * rowBytes(len(n.Exprs))); err != nil {
			return nil, err
		}
		out := make([]value.Row, len(in))
		flat := make([]value.Value, len(in)*len(n.Exprs))
		for i, r := range in {
			row := flat[i*len(n.Exprs) : (i+1)*len(n.Exprs) : (i+1)*len(n.Exprs)]
			if err := evalInto(row, n.Exprs, r); err != nil {
				return nil, err
			}
			out[i] = row
		}
		return out, nil
	case *plan.UnionAll:
		var out []value.Row
		for _, in := range n.Inputs {
			rows, err := Run(in, src)
			if err != nil {
				return nil, err
			}
			if err := budgetOf(src).charge(int64(len(rows)) * slotBytes); err != nil {
				return nil, err
			}
			out = append(out, rows...)
		}
		return out, nil
	case *plan.Distinct:
		in, err := Run(n.Input, src)
		if err != nil {
			return nil, err
		}
		// Of rows equal but printed differently, the first representation
		// (value.CompareRepr) stands for them, as the maintained view's.
		slices.SortFunc(in, value.CompareRowsExact)
		if err := newRecordOrder(columnTypes(n.Columns())).sorted(in); err != nil {
			return nil, err
		}
		return slices.CompactFunc(in, func(a, b value.Row) bool { return value.CompareRows(a, b) == 0 }), nil
	case *plan.Values:
		out := make([]value.Row, len(n.Rows))
		for i, exprs := range n.Rows {
			out[i] = make(value.Row, len(exprs))
			if err := evalInto(out[i], exprs, nil); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *plan.TableFunc:
		return tableFunc(n, src)
	case *plan.GenerateSeries:
		if n.Input != nil {
			return lateralSeries(n, src)
		}
		return series(n, nil, budgetOf(src))
	case *plan.Join:
		s, err := stopCrossedLimit(n, src)
		if err != nil {
			return nil, err
		}
		return join(s, src)
	case *plan.SetOp:
		return setOp(n, src)
	case *plan.Aggregate:
		return aggregate(n, src)
	case *plan.TopK:
		return topK(n, src)
	case *plan.Window:
		return window(n, src)
	case *plan.Recursive:
		return recursive(n, src)
	case *plan.RecRef:
		rows, err := workingRows(src, n.Name)
		return append([]value.Row(nil), rows...), err
	case *plan.Returned:
		return returnedRows(src, n.Item, n.Name)
	case *plan.Target:
		return targetRows(src, nil)
	case *plan.Sort:
		in, err := Run(n.Input, src)
		if err != nil {
			return nil, err
		}
		if err := budgetOf(src).charge(int64(len(in)) * (rowBytes(len(n.Keys)))); err != nil {
			return nil, err
		}
		return sortRows(in, n.Keys)
	case *plan.Limit:
		return limit(n, src)
	}
	return nil, pgerr.New(pgerr.Internal, "exec: unknown plan node %T", p)
}

func evalInto(dst value.Row, exprs []expr.Expr, r value.Row) error {
	for j, e := range exprs {
		v, err := e.Eval(r)
		if err != nil {
			return err
		}
		dst[j] = v
	}
	return nil
}

func rowInt(e expr.Expr, row value.Row) (int64, bool, error) {
	if e == nil {
		return 0, false, nil
	}
	v, err := e.Eval(row)
	if err != nil {
		return 0, false, err
	}
	if v.IsNull() {
		return 0, false, nil
	}
	return v.Int(), true, nil
}

// lateralSeries is generate_series over each input row.
func lateralSeries(n *plan.GenerateSeries, src Source) ([]value.Row, error) {
	in, err := Run(n.Input, src)
	if err != nil {
		return nil, err
	}
	var out []value.Row
	for _, r := range in {
		vals, err := series(n, r, budgetOf(src))
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			out = append(out, append(append(make(value.Row, 0, len(r)+1), r...), v[0]))
		}
	}
	return out, nil
}

// series is generate_series over one row (nil for constant bounds).
func series(n *plan.GenerateSeries, row value.Row, b *Budget) ([]value.Row, error) {
	start, ok1, err := rowInt(n.Start, row)
	if err != nil {
		return nil, err
	}
	stop, ok2, err := rowInt(n.Stop, row)
	if err != nil {
		return nil, err
	}
	step, ok3, err := rowInt(n.Step, row)
	if err != nil {
		return nil, err
	}
	if !ok1 || !ok2 || (n.Step != nil && !ok3) {
		return nil, nil // a NULL argument yields no rows
	}
	if n.Step == nil {
		step = 1
	}
	if step == 0 {
		return nil, pgerr.New(pgerr.InvalidParameter, "step size cannot equal zero")
	}
	k := n.Col.Type.Kind
	var out []value.Row
	for i := start; (step > 0 && i <= stop) || (step < 0 && i >= stop); i += step {
		if err := b.charge(rowBytes(1)); err != nil {
			return nil, err
		}
		out = append(out, value.Row{value.NewInt(k, i)})
		if (step > 0 && i > stop-step) || (step < 0 && i < stop-step) {
			break // the next step would pass stop (or overflow)
		}
	}
	return out, nil
}

func sortRows(rows []value.Row, keys []plan.SortKey) ([]value.Row, error) {
	type keyed struct {
		row  value.Row
		keys []value.Value
	}
	ks := make([]keyed, len(rows))
	flat := make([]value.Value, len(rows)*len(keys))
	for i, r := range rows {
		kv := flat[i*len(keys) : (i+1)*len(keys)]
		for j, k := range keys {
			v, err := k.Expr.Eval(r)
			if err != nil {
				return nil, err
			}
			kv[j] = v
		}
		ks[i] = keyed{r, kv}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		for j, k := range keys {
			if c := CompareKey(a.keys[j], b.keys[j], k.Desc, k.NullsFirst); c != 0 {
				return c
			}
		}
		return 0
	})
	types := make([]value.Type, len(keys))
	for j, k := range keys {
		types[j] = k.Expr.Type()
	}
	if o := newRecordOrder(types); o != nil {
		for i := 1; i < len(ks); i++ {
			if err := o.pair(ks[i-1].keys, ks[i].keys); err != nil {
				return nil, err
			}
		}
	}
	for i := range ks {
		rows[i] = ks[i].row
	}
	return rows, nil
}

// CompareKey compares two sort-key values under an ORDER BY item's
// direction and NULL placement.
func CompareKey(a, b value.Value, desc, nullsFirst bool) int {
	an, bn := a.IsNull(), b.IsNull()
	switch {
	case an && bn:
		return 0
	case an:
		if nullsFirst {
			return -1
		}
		return 1
	case bn:
		if nullsFirst {
			return 1
		}
		return -1
	}
	c := value.Compare(a, b)
	if desc {
		c = -c
	}
	return c
}

// limit computes LIMIT and OFFSET before reading the input, as PostgreSQL
// does: their subqueries run first, and LIMIT 0 reads no input row.
func limit(n *plan.Limit, src Source) ([]value.Row, error) {
	var params value.Row
	if n.Params != nil {
		rows, err := Run(n.Params, src)
		if err != nil {
			return nil, err
		}
		if len(rows) != 1 {
			return nil, pgerr.New(pgerr.Internal, "exec: LIMIT parameters yield %d rows", len(rows))
		}
		params = rows[0]
	}
	off, hasOff, err := rowInt(n.Offset, params)
	if err != nil {
		return nil, err
	}
	if hasOff && off < 0 {
		return nil, pgerr.New("2201X", "OFFSET must not be negative")
	}
	cnt, hasCnt, err := rowInt(n.Count, params)
	if err != nil {
		return nil, err
	}
	if c, ok := n.Count.(*expr.Const); ok && c.V.IsNull() && n.Ties != nil {
		// A NULL written as the count; one computed by a subquery means
		// no limit, as in PostgreSQL.
		return nil, pgerr.New("2201W", "row count cannot be null in FETCH FIRST ... WITH TIES clause")
	}
	if hasCnt && cnt < 0 {
		return nil, pgerr.New("2201W", "LIMIT must not be negative")
	}
	if hasCnt && cnt == 0 {
		return nil, nil
	}
	in := n.Input
	if hasCnt && len(n.Ties) == 0 {
		in = limitCross(stopRecursion(in, max(off, 0)+cnt), max(off, 0)+cnt)
	}
	rows, err := Run(in, src)
	if err != nil {
		return nil, err
	}
	if hasOff {
		if off >= int64(len(rows)) {
			return nil, nil
		}
		rows = rows[off:]
	}
	if hasCnt && cnt < int64(len(rows)) {
		end, err := tiesEnd(rows, int(cnt), n.Ties)
		if err != nil {
			return nil, err
		}
		rows = rows[:end]
	}
	return rows, nil
}

// tiesEnd returns the end of the rows kept when the first cnt (> 0) are:
// cnt, or with ties past it the rows equal to the cnt-th on their keys.
func tiesEnd(rows []value.Row, cnt int, ties []plan.SortKey) (int, error) {
	if len(ties) == 0 {
		return cnt, nil
	}
	last := make([]value.Value, len(ties))
	for j, k := range ties {
		v, err := k.Expr.Eval(rows[cnt-1])
		if err != nil {
			return 0, err
		}
		last[j] = v
	}
	end := cnt
	for ; end < len(rows); end++ {
		for j, k := range ties {
			v, err := k.Expr.Eval(rows[end])
			if err != nil {
				return 0, err
			}
			if CompareKey(last[j], v, k.Desc, k.NullsFirst) != 0 {
				return end, nil
			}
		}
	}
	return end, nil
}

func isPartitionOf(e expr.Expr) bool {
	_, ok := e.(*expr.PartitionOf)
	return ok
}
