package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// exprOrder keeps, for an index on expressions or a partial index, the
// index's key computed over each row its predicate holds, with the row's
// id, in an ordered index over the computed keys: what lets a WHERE on
// lower(email), or one that implies a partial index's predicate, find its
// rows in O(log n + rows found). A write of the table evaluates the key
// once more than keyExt.check does (the key is the index's own copy,
// about 68 bytes and the key's values a row).
type exprOrder struct {
	ord   *orderedIndex // over the computed keys: column i is element i
	elems []expr.Expr   // the key's elements, a column as an expr.Col
	keys  []string      // expr.Key of each element, to match a WHERE's
	pred  []expr.Expr   // the predicate's conjuncts, nil for none
	bytes int64         // the keys' values
}

// newExprOrder makes the ordered index of ix, an index on expressions or
// partial, over t's rows.
func newExprOrder(t *table, ix *namedIndex) *exprOrder {
	n := len(ix.cols)
	o := &exprOrder{elems: make([]expr.Expr, n), keys: make([]string, n), pred: plan.Conjuncts(ix.x.where)}
	ident := make([]int, n)
	for i, c := range ix.cols {
		ident[i] = i
		if c >= 0 {
			o.elems[i] = &expr.Col{Idx: c, T: t.cols[c].Type}
		} else {
			o.elems[i] = ix.x.exprs[i]
		}
		o.keys[i] = expr.Key(o.elems[i])
	}
	o.ord = newOrderedIndex(ident)
	o.build(t, ix)
	return o
}

// build fills the index with t's rows, sorted first (as orderedIndex.build).
func (o *exprOrder) build(t *table, ix *namedIndex) {
	o.ord = newOrderedIndex(o.ord.cols)
	o.bytes = 0
	es := make([]ordEntry, 0, t.rows.Len())
	t.scan(func(id uint64, row value.Row) bool {
		if k, ok := o.key(ix, row, nil); ok {
			es = append(es, ordEntry{row: k, id: id})
			o.bytes += dataflow.RowBytes(k)
		}
		return true
	})
	slices.SortFunc(es, o.ord.cmp)
	for _, e := range es {
		o.ord.tr.Load(e)
	}
}

// key computes ix's key over row into buf (a new slice when buf is too
// short): ok is false for a row the predicate leaves out. An error of an
// expression, which keyExt.check reports before any write, leaves the
// row out too, the same way at every write of it.
func (o *exprOrder) key(ix *namedIndex, row value.Row, buf []value.Value) (value.Row, bool) {
	if ok, err := ix.x.holds(row); err != nil || !ok {
		return nil, false
	}
	n := len(o.elems)
	if cap(buf) < n {
		buf = make([]value.Value, n)
	}
	buf = buf[:n]
	for i, e := range o.elems {
		v, err := e.Eval(row)
		if err != nil {
			return nil, false
		}
		buf[i] = v
	}
	return buf, true
}

func (o *exprOrder) add(ix *namedIndex, id uint64, row value.Row) {
	if k, ok := o.key(ix, row, nil); ok {
		o.ord.add(id, k)
		o.bytes += dataflow.RowBytes(k)
	}
}

func (o *exprOrder) drop(ix *namedIndex, id uint64, row value.Row) {
	var arr [4]value.Value
	if k, ok := o.key(ix, row, arr[:0]); ok {
		o.ord.drop(id, k)
		o.bytes -= dataflow.RowBytes(k)
	}
}

// replace moves id's entry from old's key to row's, when it changed.
func (o *exprOrder) replace(ix *namedIndex, id uint64, old, row value.Row) {
	var a, b [4]value.Value
	ko, okOld := o.key(ix, old, a[:0])
	kn, okNew := o.key(ix, row, b[:0])
	if okOld && okNew && value.CompareRowsExact(ko, kn) == 0 {
		return
	}
	if okOld {
		o.ord.drop(id, ko)
		o.bytes -= dataflow.RowBytes(ko)
	}
	if okNew {
		kn = slices.Clone(kn) // the entry keeps it
		o.ord.add(id, kn)
		o.bytes += dataflow.RowBytes(kn)
	}
}

// memBytes is the memory of the index: its entries and the keys' values.
func (o *exprOrder) memBytes() int64 { return o.ord.bytes() + o.bytes }

// sides are the conjuncts of a WHERE with, for a comparison or IS [NOT]
// NULL, the expr.Key of each operand, so that each is rendered once
// however many indexes the WHERE is matched with.
type sides struct {
	conj        []expr.Expr
	left, right []string
	whole       []string
}

func newSides(where expr.Expr) *sides {
	s := &sides{conj: plan.Conjuncts(where)}
	n := len(s.conj)
	s.left, s.right, s.whole = make([]string, n), make([]string, n), make([]string, n)
	for i, c := range s.conj {
		s.whole[i] = expr.Key(c)
		switch x := c.(type) {
		case *expr.Cmp:
			s.left[i], s.right[i] = expr.Key(x.L), expr.Key(x.R)
		case *expr.IsNull:
			s.left[i] = expr.Key(x.E)
		}
	}
	return s
}

// cond collects what the conjuncts say of the expression whose key is
// key and whose type is of kind k: equalities, bounds and IS NULL against
// constants or parameters, as columnConds does for columns. nil when
// they say nothing.
func (s *sides) cond(key string, k value.Kind) (*colCond, error) {
	var cc *colCond
	get := func() *colCond {
		if cc == nil {
			cc = &colCond{}
		}
		return cc
	}
	for i, c := range s.conj {
		switch x := c.(type) {
		case *expr.IsNull:
			if !x.Not && s.left[i] == key {
				get().isNull = true
			}
		case *expr.Cmp:
			if x.Op == expr.NE {
				continue
			}
			op, other := x.Op, x.R
			switch key {
			case s.left[i]:
			case s.right[i]:
				op, other = flipCmp(op), x.L
			default:
				continue
			}
			v, ok, err := constantFor(k, other)
			if err != nil {
				return nil, err
			}
			if ok {
				get().add(op, v)
			}
		}
	}
	return cc, nil
}

// implies reports whether the conjuncts prove each conjunct of a partial
// index's predicate, in the simple cases PostgreSQL's predicate test
// proves: the same conjunct; a comparison with a constant that an
// equality or a bound on the same expression implies (a = 5 or a > 20
// implies a > 10); IS NOT NULL of an expression a comparison bounds.
func (s *sides) implies(pred []expr.Expr) (bool, error) {
	for _, p := range pred {
		if slices.Contains(s.whole, expr.Key(p)) {
			continue
		}
		var e, other expr.Expr
		var op expr.CmpOp
		switch x := p.(type) {
		case *expr.IsNull:
			if !x.Not {
				return false, nil
			}
			cc, err := s.cond(expr.Key(x.E), x.E.Type().Kind)
			if err != nil || cc == nil || !(cc.hasEq || cc.hasLo || cc.hasHi || cc.never) {
				return false, err
			}
			continue
		case *expr.Cmp:
			e, other, op = x.L, x.R, x.Op
			if len(expr.Columns(e)) == 0 {
				e, other, op = x.R, x.L, flipCmp(x.Op)
			}
		default:
			return false, nil
		}
		c, ok, err := constantFor(e.Type().Kind, other)
		if err != nil || !ok || c.IsNull() {
			return false, err
		}
		cc, err := s.cond(expr.Key(e), e.Type().Kind)
		if err != nil || cc == nil || !cc.proves(op, c) {
			return false, err
		}
	}
	return true, nil
}

// proves reports whether what cc says of an expression implies
// "expression op c".
func (cc *colCond) proves(op expr.CmpOp, c value.Value) bool {
	if cc.never {
		return true // no row qualifies
	}
	if cc.hasEq {
		d := value.Compare(cc.eq, c)
		switch op {
		case expr.EQ:
			return d == 0
		case expr.NE:
			return d != 0
		case expr.LT:
			return d < 0
		case expr.LE:
			return d <= 0
		case expr.GT:
			return d > 0
		case expr.GE:
			return d >= 0
		}
		return false
	}
	switch op {
	case expr.GT, expr.GE:
		if !cc.hasLo {
			return false
		}
		d := value.Compare(cc.lo, c)
		return d > 0 || d == 0 && (op == expr.GE || !cc.loIncl)
	case expr.LT, expr.LE:
		if !cc.hasHi {
			return false
		}
		d := value.Compare(cc.hi, c)
		return d < 0 || d == 0 && (op == expr.LE || !cc.hiIncl)
	case expr.NE:
		if cc.hasLo {
			if d := value.Compare(cc.lo, c); d > 0 || d == 0 && !cc.loIncl {
				return true
			}
		}
		if cc.hasHi {
			if d := value.Compare(cc.hi, c); d < 0 || d == 0 && !cc.hiIncl {
				return true
			}
		}
	}
	return false
}

// exprPath weighs t's indexes on expressions and partial indexes against
// best, the path of score the other indexes give (nil for none): one
// wins when its predicate, if any, is implied by where, and it fixes more
// leading elements of its key (two points each) or bounds the next (one
// point); a partial index gets a point more, for the rows its predicate
// leaves out.
func (t *table) exprPath(where expr.Expr, conds colConds, best *accessPath, score int) (*accessPath, error) {
	if t.xindexes == nil {
		return best, nil
	}
	s := newSides(where)
	for _, ix := range t.xindexes {
		o := ix.xord
		if o == nil {
			continue
		}
		if o.pred != nil {
			ok, err := s.implies(o.pred)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		cond := func(i int) (*colCond, error) {
			if c := ix.cols[i]; c >= 0 {
				return conds.at(c), nil
			}
			return s.cond(o.keys[i], o.elems[i].Type().Kind)
		}
		p := &accessPath{xix: ix}
		var next *colCond
		for i := range o.elems {
			cc, err := cond(i)
			if err != nil {
				return nil, err
			}
			if cc == nil || !cc.hasEq && !cc.isNull && !cc.never {
				next = cc
				break
			}
			p.empty = p.empty || cc.never
			p.r.eq = append(p.r.eq, cc.eq) // NULL for IS NULL
		}
		sc := 2 * len(p.r.eq)
		if next != nil && (next.hasLo || next.hasHi) {
			p.r.bounded = true
			p.r.lo, p.r.hasLo, p.r.loIncl = next.lo, next.hasLo, next.loIncl
			p.r.hi, p.r.hasHi, p.r.hiIncl = next.hi, next.hasHi, next.hiIncl
			sc++
		}
		if o.pred != nil {
			sc++
		}
		if sc > score {
			best, score = p, sc
		}
	}
	return best, nil
}

// eachOnExprPath is eachOnPath for an index on expressions or partial.
func (t *table) eachOnExprPath(p *accessPath, fn func(id uint64, row value.Row) bool) {
	var ids []uint64
	p.xix.xord.ord.scan(&p.r, func(id uint64, _ value.Row) bool {
		ids = append(ids, id)
		return true
	})
	slices.Sort(ids)
	for _, id := range ids {
		row, _ := t.rows.Get(id)
		if !fn(id, row) {
			return
		}
	}
}

// describeExpr is describe for an index on expressions or partial: its
// key's elements as written.
func (p *accessPath) describeExpr(t *table, text func(value.Value) string) string {
	ix := p.xix
	conds := rangeConds(&p.r, func(i int) string {
		if c := ix.cols[i]; c >= 0 {
			return t.cols[c].Name
		}
		return ix.x.keySQL[i]
	}, text)
	if len(conds) == 0 {
		return fmt.Sprintf("Index Scan using %s on %s", ix.name, t.name)
	}
	return fmt.Sprintf("Index Scan using %s on %s: %s", ix.name, t.name, strings.Join(conds, " AND "))
}

// reset empties the index, for the table's puts to fill it again.
func (o *exprOrder) reset() {
	o.ord = newOrderedIndex(o.ord.cols)
	o.bytes = 0
}
