package exec

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// recursive evaluates WITH RECURSIVE as PostgreSQL does: the working table
// starts as the anchor's rows; each round evaluates the step over the
// working table, and the round's rows (under UNION, those not produced
// before) become the next working table, until a round produces none.
// Output is every round's rows in order. Only a bound set with
// deltaview.max_recursion limits the rounds: an ad-hoc query runs as
// long as PostgreSQL's would, within its memory budget and timeout.
func recursive(n *plan.Recursive, src Source) ([]value.Row, error) {
	rows, err := Run(n.Anchor, src)
	if err != nil {
		return nil, err
	}
	// seen holds, under UNION, the rows produced: by key, the round that
	// produced one and where it is in that round's rows.
	var seen map[string]seenRow
	var buf []byte
	// fresh keeps, under UNION, the rows not produced before. Of a round's
	// equal rows printed differently (1.5 and 1.50), it keeps the first
	// representation (value.CompareReprs), as the maintained view does.
	fresh := func(rows []value.Row, round int) []value.Row {
		if n.All {
			return rows
		}
		out := rows[:0:0]
		for _, r := range rows {
			buf = value.AppendRowKey(buf[:0], r)
			if s, dup := seen[string(buf)]; dup {
				if s.round == round && value.CompareReprs(r, out[s.at]) < 0 {
					out[s.at] = r
				}
				continue
			}
			seen[string(buf)] = seenRow{round: round, at: len(out)}
			out = append(out, r)
		}
		return out
	}
	if !n.All {
		seen = map[string]seenRow{}
	}
	b := budgetOf(src)
	work := fresh(rows, 0)
	out := append([]value.Row(nil), work...)
	stop := newDomainStop(n)
	for round := 1; len(work) > 0; round++ {
		if n.StopAfter > 0 && n.StopPer == 0 && int64(len(out)) >= n.StopAfter {
			break
		}
		if work, err = stop.next(work); err != nil {
			return nil, err
		} else if len(work) == 0 {
			break
		}
		if n.MaxIterations > 0 && round > n.MaxIterations {
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "recursive query %q did not converge within %d rounds", n.Name, n.MaxIterations).
				WithHint("a UNION ALL recursion over a cycle never ends; use UNION, or bound the recursion in its WHERE clause")
		}
		next, err := Run(n.Step, &working{Source: src, name: n.Name, rows: work})
		if err != nil {
			return nil, err
		}
		work = fresh(next, round)
		if err := b.charge(int64(len(work)) * slotBytes); err != nil {
			return nil, err
		}
		out = append(out, work...)
	}
	return out, nil
}

// domainStop counts a decorrelated recursion's rows per domain value
// (Recursive.StopPer) and takes out of the working table the rows of the
// values that have StopAfter rows (StopNeed's value): their recursions
// have stopped.
type domainStop struct {
	n      *plan.Recursive
	counts map[string]int64
	// needs caches, under StopNeed, each domain value's need.
	needs map[string]int64
	buf   []byte
}

func newDomainStop(n *plan.Recursive) *domainStop {
	if n.StopAfter <= 0 && n.StopNeed == nil || n.StopPer <= 0 {
		return nil
	}
	s := &domainStop{n: n, counts: map[string]int64{}}
	if n.StopNeed != nil {
		s.needs = map[string]int64{}
	}
	return s
}

// need is the rows the domain value of r, whose key is key, needs: a
// negative one for no bound (StopNeed NULL).
func (s *domainStop) need(key string, r value.Row) (int64, error) {
	if s.needs == nil {
		return s.n.StopAfter, nil
	}
	if k, ok := s.needs[key]; ok {
		return k, nil
	}
	v, err := s.n.StopNeed.Eval(r)
	if err != nil {
		return 0, err
	}
	k := int64(-1)
	if !v.IsNull() {
		k = v.Int()
	}
	s.needs[key] = k
	return k, nil
}

// next counts the rows of the round just produced and returns those of
// them whose domain value is still short of its rows.
func (s *domainStop) next(work []value.Row) ([]value.Row, error) {
	if s == nil {
		return work, nil
	}
	for _, r := range work {
		s.buf = value.AppendRowKey(s.buf[:0], r[:s.n.StopPer])
		s.counts[string(s.buf)]++
	}
	out := work[:0:0]
	for _, r := range work {
		s.buf = value.AppendRowKey(s.buf[:0], r[:s.n.StopPer])
		need, err := s.need(string(s.buf), r)
		if err != nil {
			return nil, err
		}
		if need < 0 || s.counts[string(s.buf)] < need {
			out = append(out, r)
		}
	}
	return out, nil
}

// seenRow is where a recursive UNION's row is: its round, and its index
// in that round's rows.
type seenRow struct{ round, at int }

// working is a Source that also holds a recursive query's working table,
// which the step's RecRef reads.
type working struct {
	Source
	name string
	rows []value.Row
}

var _ FilteredSource = (*working)(nil)

func (w *working) ScanFiltered(relation string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	if fs, ok := w.Source.(FilteredSource); ok {
		return fs.ScanFiltered(relation, pred, fn)
	}
	return false, nil
}

// workingRows returns the working table of the recursive query named name
// that src holds.
func workingRows(src Source, name string) ([]value.Row, error) {
	for {
		w, ok := src.(*working)
		if !ok {
			return nil, pgerr.New(pgerr.Internal, "exec: recursive reference to %q outside its query", name)
		}
		if w.name == name {
			return w.rows, nil
		}
		src = w.Source
	}
}

// stopRecursion returns in, a LIMIT's input, with the recursion it reads
// told to stop after need rows when only projections lie between the two
// (they keep the rows and their order); otherwise in itself.
func stopRecursion(in plan.Node, need int64) plan.Node {
	switch n := in.(type) {
	case *plan.Recursive:
		c := *n
		c.StopAfter = need
		return &c
	case *plan.Project:
		if r := stopRecursion(n.Input, need); r != n.Input {
			c := *n
			c.Input = r
			return &c
		}
	}
	return in
}

// stopDomainRecursion returns in, the input of a TopK without order
// partitioned by the first w columns (a correlated subquery's LIMIT, per
// domain value), with the recursion it reads told to stop each domain
// value's rows after need, when only projections that keep the first w
// columns lie between the two; otherwise in itself.
func stopDomainRecursion(in plan.Node, need int64, w int) plan.Node {
	switch n := in.(type) {
	case *plan.Recursive:
		c := *n
		c.StopAfter, c.StopPer = need, w
		return &c
	case *plan.Project:
		if len(n.Exprs) < w {
			return in
		}
		for i, e := range n.Exprs[:w] {
			if c, ok := e.(*expr.Col); !ok || c.Idx != i {
				return in
			}
		}
		if r := stopDomainRecursion(n.Input, need, w); r != n.Input {
			c := *n
			c.Input = r
			return &c
		}
	}
	return in
}

// domainLimit returns the w of a TopK without order partitioned by the
// first w columns of its input, or 0.
func domainLimit(n *plan.TopK) int {
	if len(n.Order) > 0 || len(n.Partition) == 0 {
		return 0
	}
	for i, e := range n.Partition {
		if c, ok := e.(*expr.Col); !ok || c.Idx != i {
			return 0
		}
	}
	return len(n.Partition)
}
