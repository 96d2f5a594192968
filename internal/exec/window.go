package exec

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// window appends to each row its window function's result, computed from
// scratch as the SQL standard defines it: each partition sorted (ties
// broken by the whole row, as the maintained operator breaks them), and
// for each row its peers, its frame, and the function over them. It is
// the oracle of the maintained Window operator and shares none of its
// code: the aggregates over a frame are the grouped aggregates' own.
func window(n *plan.Window, src Source) ([]value.Row, error) {
	in, err := Run(n.Input, src)
	if err != nil {
		return nil, err
	}
	t := &plan.TopK{Input: n.Input, Partition: n.Partition, Order: n.Order, Limit: int64(len(in))}
	parts, err := partitionSorted(t, in)
	if err != nil {
		return nil, err
	}
	var out []value.Row
	for _, rows := range parts {
		vals, err := windowPartition(n, rows)
		if err != nil {
			return nil, err
		}
		for i, r := range rows {
			row := make(value.Row, len(r)+1)
			copy(row, r)
			row[len(r)] = vals[i]
			out = append(out, row)
		}
	}
	return out, nil
}

// windowPartition computes the function for each row of a sorted
// partition.
func windowPartition(n *plan.Window, rows []value.Row) ([]value.Value, error) {
	f := &n.Func
	cnt := len(rows)
	if cnt > 0 && (f.Frame.StartExpr != nil || f.Frame.EndExpr != nil) {
		fn, err := n.Func.ResolveFrame(rows[0])
		if err != nil {
			return nil, err
		}
		f = &fn
	}
	// peer group bounds of each row: [lo, hi)
	keys := make([][]value.Value, cnt)
	for i, r := range rows {
		for _, o := range n.Order {
			v, err := o.Expr.Eval(r)
			if err != nil {
				return nil, err
			}
			keys[i] = append(keys[i], v)
		}
	}
	peers := func(i, j int) bool {
		for k, o := range n.Order {
			if CompareKey(keys[i][k], keys[j][k], o.Desc, o.NullsFirst) != 0 {
				return false
			}
		}
		return true
	}
	// Peer groups, in two passes; dense[i] numbers row i's group.
	lo, hi, dense := make([]int, cnt), make([]int, cnt), make([]int64, cnt)
	for i := range cnt {
		if i > 0 && peers(i-1, i) {
			lo[i], dense[i] = lo[i-1], dense[i-1]
		} else {
			lo[i] = i
			if i > 0 {
				dense[i] = dense[i-1]
			}
			dense[i]++
		}
	}
	for i := cnt - 1; i >= 0; i-- {
		if i < cnt-1 && peers(i, i+1) {
			hi[i] = hi[i+1]
		} else {
			hi[i] = i + 1
		}
	}
	arg := func(i int) (value.Value, error) { return f.Arg.Eval(rows[i]) }
	out := make([]value.Value, cnt)
	ps, pe := -1, -1 // the previous row's frame
	ntileFrom, ntileK := -1, int64(0)
	for i := range cnt {
		var v value.Value
		var err error
		switch f.Kind {
		case plan.WinRowNumber:
			v = value.NewInt(value.Int8, int64(i+1))
		case plan.WinRank:
			v = value.NewInt(value.Int8, int64(lo[i]+1))
		case plan.WinDenseRank:
			v = value.NewInt(value.Int8, dense[i])
		case plan.WinPercentRank:
			x := 0.0
			if cnt > 1 {
				x = float64(lo[i]) / float64(cnt-1)
			}
			v = value.NewFloat(value.Float8, x)
		case plan.WinCumeDist:
			v = value.NewFloat(value.Float8, float64(hi[i])/float64(cnt))
		case plan.WinNtile:
			v = value.Null
			// A non-constant count is read once per partition, as
			// PostgreSQL does, from the first row where it is not NULL:
			// the rows before it are NULL, and that row is the first of
			// the first bucket.
			if ntileFrom < 0 {
				k, null, err := winN(f, rows[i], "22014", "ntile")
				if err != nil {
					return nil, err
				}
				if null {
					break
				}
				ntileFrom, ntileK = i, k
			}
			v = value.NewInt(value.Int4, ntileOf(i-ntileFrom, cnt, ntileK))
		case plan.WinLag, plan.WinLead:
			v = value.Null
			k, null, err := winN(f, rows[i], "", "")
			if err != nil {
				return nil, err
			}
			if null {
				break
			}
			j := int64(i) - k
			if f.Kind == plan.WinLead {
				j = int64(i) + k
			}
			switch {
			case j >= 0 && j < int64(cnt):
				v, err = arg(int(j))
			case f.Default != nil:
				v, err = f.Default.Eval(rows[i])
			}
		default:
			// Rows with the same frame (peers under RANGE) have the same
			// result.
			s, e := frameOf(f.Frame, i, cnt, lo[i], hi[i])
			if f.Frame.Groups {
				s, e = groupsFrame(f.Frame, dense[i], lo, hi, dense)
			}
			if f.Frame.RangeOffset() {
				if s, e, err = rangeFrame(f.Frame, n.Order[0], keys, i, lo[i], hi[i]); err != nil {
					return nil, err
				}
			}
			if f.NExpr != nil {
				// nth_value's n, over the current row.
				frame := rows[s:e]
				if f.Frame.Exclude != plan.ExcludeNoOthers {
					frame = excluded(f.Frame.Exclude, rows, s, e, i, lo[i], hi[i])
				}
				k, null, err := winN(f, rows[i], "22016", "nth_value")
				if err != nil {
					return nil, err
				}
				v = value.Null
				if !null && k-1 < int64(len(frame)) {
					v, err = f.Arg.Eval(frame[k-1])
				}
				break
			}
			if f.Frame.Exclude != plan.ExcludeNoOthers {
				v, err = frameValue(n, excluded(f.Frame.Exclude, rows, s, e, i, lo[i], hi[i]))
				break
			}
			if i > 0 && s == ps && e == pe {
				v = out[i-1]
				break
			}
			ps, pe = s, e
			v, err = frameValue(n, rows[s:e])
		}
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// ntileOf is the bucket of row i of cnt among b buckets: the first
// cnt mod b buckets hold one row more than the others.
func ntileOf(i, cnt int, b int64) int64 {
	per := int64(cnt) / b
	if per == 0 {
		return int64(i) + 1
	}
	big := int64(cnt) % b
	if at := big * (per + 1); int64(i) < at {
		return int64(i)/(per+1) + 1
	} else {
		return big + (int64(i)-at)/per + 1
	}
}

// groupsFrame is the GROUPS frame [s, e) of a row of peer group d
// (counted from 1): lo, hi and dense are each row's peers and group.
func groupsFrame(fr plan.Frame, d int64, lo, hi []int, dense []int64) (int, int) {
	cnt := len(lo)
	groups := dense[cnt-1]
	// edge is where group g starts (at = lo) or ends (at = hi), clamped
	// to the partition.
	edge := func(g int64, at []int) int {
		switch {
		case g < 1:
			return 0
		case g > groups:
			return cnt
		}
		for i := range cnt {
			if dense[i] == g {
				return at[i]
			}
		}
		return cnt
	}
	first := func(g int64) int { return edge(g, lo) }
	last := func(g int64) int { return edge(g, hi) }
	var s, e int
	switch fr.Start {
	case plan.UnboundedPreceding:
		s = 0
	case plan.OffsetPreceding:
		s = first(d - min(fr.StartOff, groups))
	case plan.CurrentRow:
		s = first(d)
	case plan.OffsetFollowing:
		s = first(d + min(fr.StartOff, groups))
	default:
		s = cnt
	}
	switch fr.End {
	case plan.OffsetPreceding:
		e = last(d - min(fr.EndOff, groups))
	case plan.CurrentRow:
		e = last(d)
	case plan.OffsetFollowing:
		e = last(d + min(fr.EndOff, groups))
	default:
		e = cnt
	}
	return s, max(s, e)
}

// rangeFrame is row i's frame [s, e) in RANGE mode with an offset,
// found by testing each row of the partition as PostgreSQL's in_range
// does: a NULL row's offset bounds are its peers; otherwise a row is
// within a bound when its value is on the bound's side of it, the NULLs
// never.
func rangeFrame(fr plan.Frame, o plan.SortKey, keys [][]value.Value, i, lo, hi int) (int, int, error) {
	cnt := len(keys)
	k := keys[i][0]
	// within reports whether row j is at or past the start bound (start),
	// or at or before the end bound.
	within := func(j int, off value.Value, preceding, start bool) (bool, error) {
		v := keys[j][0]
		if v.IsNull() {
			return false, nil
		}
		b, all, inf, err := plan.RangeBound(k, off, preceding != o.Desc)
		if err != nil {
			return false, err
		}
		c := -inf
		switch {
		case all:
			c = plan.RangeAllCompare(v, start == o.Desc)
		case inf == 0:
			c = plan.RangeCompare(v, b)
		}
		if o.Desc {
			c = -c
		}
		if start {
			return c >= 0, nil
		}
		return c <= 0, nil
	}
	s, e := frameOf(fr, i, cnt, lo, hi)
	switch fr.Start {
	case plan.OffsetPreceding, plan.OffsetFollowing:
		s = lo
		if !k.IsNull() {
			// The first non-NULL row within the bound; the NULLs after
			// the last when they sort last.
			s = cnt
			for j := range cnt {
				in, err := within(j, fr.StartVal, fr.Start == plan.OffsetPreceding, true)
				if err != nil {
					return 0, 0, err
				}
				if in || keys[j][0].IsNull() && !o.NullsFirst {
					s = j
					break
				}
			}
		}
	}
	switch fr.End {
	case plan.OffsetPreceding, plan.OffsetFollowing:
		e = hi
		if !k.IsNull() {
			// One past the last non-NULL row within the bound.
			e = 0
			for j := cnt - 1; j >= 0; j-- {
				in, err := within(j, fr.EndVal, fr.End == plan.OffsetPreceding, false)
				if err != nil {
					return 0, 0, err
				}
				if in || keys[j][0].IsNull() && o.NullsFirst {
					e = j + 1
					break
				}
			}
		}
	}
	return s, max(s, e), nil
}

// frameOf is row i's frame [s, e) in a partition of cnt rows; its peers
// are [lo, hi).
func frameOf(fr plan.Frame, i, cnt, lo, hi int) (int, int) {
	var s, e int
	switch fr.Start {
	case plan.UnboundedPreceding:
		s = 0
	case plan.OffsetPreceding:
		s = i - int(min(fr.StartOff, int64(cnt)))
	case plan.CurrentRow:
		s = i
		if !fr.Rows {
			s = lo
		}
	case plan.OffsetFollowing:
		s = i + int(min(fr.StartOff, int64(cnt)))
	default:
		s = cnt
	}
	switch fr.End {
	case plan.UnboundedPreceding:
		e = 0
	case plan.OffsetPreceding:
		e = i - int(min(fr.EndOff, int64(cnt))) + 1
	case plan.CurrentRow:
		e = i + 1
		if !fr.Rows {
			e = hi
		}
	case plan.OffsetFollowing:
		e = i + int(min(fr.EndOff, int64(cnt))) + 1
	default:
		e = cnt
	}
	s, e = min(max(s, 0), cnt), min(e, cnt)
	if e < s {
		e = s
	}
	return s, e
}

// excluded is the rows of the frame [s, e) of row i, whose peers are
// [lo, hi), less those its exclusion takes out.
func excluded(x plan.FrameExclude, rows []value.Row, s, e, i, lo, hi int) []value.Row {
	var out []value.Row
	for j := s; j < e; j++ {
		switch {
		case x == plan.ExcludeCurrentRow && j == i,
			x == plan.ExcludeGroup && j >= lo && j < hi,
			x == plan.ExcludeTies && j >= lo && j < hi && j != i:
			continue
		}
		out = append(out, rows[j])
	}
	return out
}

// frameValue is a frame function over the rows of a frame.
func frameValue(n *plan.Window, rows []value.Row) (value.Value, error) {
	f := &n.Func
	switch f.Kind {
	case plan.WinFirstValue:
		if len(rows) > 0 {
			return f.Arg.Eval(rows[0])
		}
	case plan.WinLastValue:
		if len(rows) > 0 {
			return f.Arg.Eval(rows[len(rows)-1])
		}
	case plan.WinNthValue:
		if !f.NullN && f.N <= 0 { // read by each row, even over an empty frame
			return value.Null, pgerr.New("22016", "argument of nth_value must be greater than zero")
		}
		if !f.NullN && f.N-1 < int64(len(rows)) {
			return f.Arg.Eval(rows[f.N-1])
		}
	case plan.WinAgg:
		if f.Call != nil {
			call := *f.Call
			if call.Func.Has(plan.AggOrdered) && len(call.OrderBy) == 0 {
				call.OrderBy = n.Order
			}
			return evalAggregate(&call, rows, false)
		}
		call := &plan.AggCall{Name: f.Name, Func: f.Agg, Star: f.Agg == plan.AggCountStar, Arg: f.Arg, Sep: f.Sep, Filter: f.Filter, Type: f.Type}
		if f.Agg.Has(plan.AggOrdered) {
			// string_agg and array_agg list the frame's values in the
			// window's order.
			call.OrderBy = n.Order
		}
		return evalAggregate(call, rows, false)
	default:
		return value.Null, pgerr.New(pgerr.Internal, "window function %s has no frame", f.Name)
	}
	return value.Null, nil
}

// winN is ntile's, lag's, lead's or nth_value's constant argument, or
// its non-constant one over row: null reports NULL. A count that must be
// positive (code set) is PostgreSQL's error otherwise.
func winN(f *plan.WinFunc, row value.Row, code, name string) (n int64, null bool, err error) {
	if f.NExpr == nil {
		if code != "" && !f.NullN && f.N <= 0 {
			// A constant count fails when a row reads it, as in
			// PostgreSQL: over no rows there is no error.
			return 0, false, pgerr.New(code, "argument of %s must be greater than zero", name)
		}
		return f.N, f.NullN, nil
	}
	v, err := f.NExpr.Eval(row)
	switch {
	case err != nil:
		return 0, false, err
	case v.IsNull():
		return 0, true, nil
	case code != "" && v.Int() <= 0:
		return 0, false, pgerr.New(code, "argument of %s must be greater than zero", name)
	}
	return v.Int(), false, nil
}
