package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// accessPath is how a WHERE finds a table's rows through an index rather
// than a scan: a whole primary or unique key fixed by equalities (O(1)),
// the leading column of a composite one (its prefix index, O(rows
// found)), or equalities on leading columns of an index CREATE INDEX
// made and a range on the next one (O(log n + rows found)). It keeps
// nothing: it is found again for each statement.
type accessPath struct {
	empty bool // a conjunct column = NULL on the path: no row qualifies

	unique *uniqueIndex
	probe  value.Row // the key's values in a row of the table's width

	prefixCol int
	prefixVal value.Value
	prefixOf  *uniqueIndex

	ix *namedIndex
	r  keyRange

	xix *namedIndex // an index on expressions or partial, r over its key (exprpath.go)

	alts []*accessPath // a union: one path per value of an IN list
}

// colCond is what the conjuncts of a WHERE say of one column: an equality
// to a value, IS NULL, bounds. never is set by a comparison with NULL,
// which no row satisfies.
type colCond struct {
	hasEq, isNull, never bool
	eq                   value.Value
	lo, hi               value.Value
	hasLo, hasHi         bool
	loIncl, hiIncl       bool
}

// colConds is what a WHERE says of its columns, one entry per column it
// constrains: a WHERE constrains few, so a search of a short slice costs
// less than a map, whose allocations a prepared UPDATE by key paid on
// every execution.
type colConds []colCondAt

type colCondAt struct {
	col int
	colCond
}

// at returns column c's conditions, nil when the WHERE sets none.
func (cs colConds) at(c int) *colCond {
	for i := range cs {
		if cs[i].col == c {
			return &cs[i].colCond
		}
	}
	return nil
}

// columnConds collects, by column, the conjuncts of where that compare a
// column with a constant or parameter (=, <, <=, >, >=, BETWEEN, IS NULL).
// Constants are taken when of the column's type, or of another integer
// type when they fit; the others are left to the WHERE.
func columnConds(cols []plan.Column, where expr.Expr) (colConds, error) {
	var out colConds
	get := func(c int) *colCond {
		if cc := out.at(c); cc != nil {
			return cc
		}
		out = append(out, colCondAt{col: c})
		return &out[len(out)-1].colCond
	}
	// One comparison (a WHERE by key) needs no slice of conjuncts.
	conjuncts := []expr.Expr{where}
	if _, ok := where.(*expr.Cmp); !ok {
		conjuncts = plan.Conjuncts(where)
	}
	for _, c := range conjuncts {
		if n, ok := c.(*expr.IsNull); ok && !n.Not {
			if col, ok := n.E.(*expr.Col); ok && col.Idx < len(cols) {
				get(col.Idx).isNull = true
			}
			continue
		}
		cmp, ok := c.(*expr.Cmp)
		if !ok || cmp.Op == expr.NE {
			continue
		}
		op := cmp.Op
		col, ok := cmp.L.(*expr.Col)
		other := cmp.R
		if !ok {
			if col, ok = cmp.R.(*expr.Col); !ok {
				continue
			}
			other = cmp.L
			op = flipCmp(op)
		}
		if col.Idx >= len(cols) {
			continue
		}
		v, ok, err := constantFor(cols[col.Idx].Type.Kind, other)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		get(col.Idx).add(op, v)
	}
	return out, nil
}

// add narrows cc by the conjunct "column op v".
func (cc *colCond) add(op expr.CmpOp, v value.Value) {
	if v.IsNull() {
		cc.never = true
		return
	}
	switch op {
	case expr.EQ:
		cc.hasEq, cc.eq = true, v
	case expr.GT, expr.GE:
		// The tighter of two lower bounds: the greater, or the
		// exclusive one of two equal.
		incl := op == expr.GE
		if !cc.hasLo || tighter(value.Compare(v, cc.lo), incl) {
			cc.hasLo, cc.lo, cc.loIncl = true, v, incl
		}
	case expr.LT, expr.LE:
		incl := op == expr.LE
		if !cc.hasHi || tighter(-value.Compare(v, cc.hi), incl) {
			cc.hasHi, cc.hi, cc.hiIncl = true, v, incl
		}
	}
}

// tighter reports whether a bound beyond the current one by c (its sign)
// narrows the range.
func tighter(c int, incl bool) bool { return c > 0 || c == 0 && !incl }

func flipCmp(op expr.CmpOp) expr.CmpOp {
	switch op {
	case expr.LT:
		return expr.GT
	case expr.LE:
		return expr.GE
	case expr.GT:
		return expr.LT
	case expr.GE:
		return expr.LE
	}
	return op
}

// constantFor evaluates e, an expression of no column, as a value of a
// column of kind want: ok is false when e reads a column, is volatile, is
// of another type, or is an integer that does not fit (which an
// equality or a bound cannot use, index keys being typed). A geometric
// column's comparisons (box = box compares areas) are not the order an
// index keeps its values in: none is used.
func constantFor(want value.Kind, e expr.Expr) (value.Value, bool, error) {
	if len(expr.Columns(e)) > 0 || e.Volatile() || want.IsGeometric() {
		return value.Value{}, false, nil
	}
	have := e.Type().Kind
	if have != want && !(have.IsInteger() && want.IsInteger()) {
		return value.Value{}, false, nil
	}
	v, err := e.Eval(nil)
	if err != nil {
		return value.Value{}, false, err
	}
	if !v.IsNull() && v.Kind() != want {
		if !intFits(want, v.Int()) {
			return value.Value{}, false, nil
		}
		v = value.NewInt(want, v.Int())
	}
	return v, true, nil
}

// accessPath returns the best index path where gives t, nil when none
// applies: the path of its conjuncts (conjunctPath), or else one lookup
// per value of a column IN list or = ANY array (inListPath).
func (t *table) accessPath(where expr.Expr) (*accessPath, error) {
	p, err := t.conjunctPath(where)
	if p != nil || err != nil {
		return p, err
	}
	return t.inListPath(where)
}

// inListPath returns the union of the paths where has with a conjunct
// column IN (constants) replaced by column = value, one per distinct
// value: nil when the list is long beside the table or a value has no
// path. A NULL in the list finds nothing, as in the WHERE.
func (t *table) inListPath(where expr.Expr) (*accessPath, error) {
	if where == nil || len(t.uniques) == 0 && len(t.indexes) == 0 && t.xindexes == nil || !t.keepsRows() {
		return nil, nil
	}
	conj := plan.Conjuncts(where)
	for i, c := range conj {
		col, items := listOf(c)
		if col == nil || col.Idx >= len(t.cols) || len(items) > max(64, t.rows.Len()/16) {
			continue
		}
		rest := slices.Delete(slices.Clone(conj), i, i+1)
		p := &accessPath{empty: len(items) == 0}
		seen := map[string]bool{}
		for _, item := range items {
			v, ok, err := constantFor(t.cols[col.Idx].Type.Kind, item)
			if err != nil || !ok {
				p = nil
				break
			}
			if k := string(value.AppendKey(nil, v)); !seen[k] {
				seen[k] = true
				eq := &expr.Cmp{Op: expr.EQ, L: col, R: &expr.Const{V: v, T: t.cols[col.Idx].Type}}
				alt, err := t.conjunctPath(&expr.And{Args: append(slices.Clip(rest), eq)})
				if err != nil || alt == nil {
					p = nil
					break
				}
				p.alts = append(p.alts, alt)
			}
		}
		if p != nil {
			return p, nil
		}
	}
	return nil, nil
}

// listOf returns the column and the items of a conjunct column IN (…) or
// column = ANY (constant array), nil for another conjunct.
func listOf(c expr.Expr) (*expr.Col, []expr.Expr) {
	if in, ok := c.(*expr.InList); ok && !in.Not {
		col, _ := in.E.(*expr.Col)
		return col, in.List
	}
	l, arr, ok := expr.EqualsAny(c)
	col, isCol := l.(*expr.Col)
	if !ok || !isCol || len(expr.Columns(arr)) > 0 || arr.Volatile() {
		return nil, nil
	}
	a, err := arr.Eval(nil)
	if err != nil || a.IsNull() {
		return nil, nil
	}
	elem := value.Type{Kind: arr.Type().Kind.Elem(), Mod: -1}
	var items []expr.Expr
	for _, e := range a.Elems() {
		items = append(items, &expr.Const{V: e, T: elem})
	}
	return col, items
}

// conjunctPath returns the best index path the conjuncts of where give
// t, nil when none applies. An index CREATE INDEX made wins over a
// composite key's prefix index when it fixes more columns, or bounds one.
func (t *table) conjunctPath(where expr.Expr) (*accessPath, error) {
	if where == nil || len(t.uniques) == 0 && len(t.indexes) == 0 && t.xindexes == nil || !t.keepsRows() {
		return nil, nil
	}
	conds, err := columnConds(t.cols, where)
	if err != nil {
		return nil, err
	}
	if conds == nil {
		return t.exprPath(where, conds, nil, 0)
	}
	for _, u := range t.uniques {
		complete := true
		for _, c := range u.cols {
			if cc := conds.at(c); cc == nil || !cc.hasEq && !cc.never {
				complete = false
				break
			}
		}
		if !complete {
			continue
		}
		p := &accessPath{unique: u, probe: make(value.Row, len(t.cols))}
		for _, c := range u.cols {
			cc := conds.at(c)
			p.probe[c] = cc.eq
			p.empty = p.empty || cc.never
		}
		return p, nil
	}
	var best *accessPath
	score := 0
	for _, u := range t.uniques {
		if cc := conds.at(u.cols[0]); len(u.cols) > 1 && cc != nil && (cc.hasEq || cc.never) {
			best, score = &accessPath{prefixCol: u.cols[0], prefixVal: cc.eq, prefixOf: u, empty: cc.never}, 2
			break
		}
	}
	// An ordered index of a key serves ranges the indexes CREATE INDEX
	// made do not serve as well: built on first use, as a prefix index.
	var keyed *uniqueIndex
	for _, u := range t.uniques {
		if s := orderedScore(u.cols, conds); s > score && s%2 == 1 && !slices.ContainsFunc(t.indexes, func(ix *namedIndex) bool { return orderedScore(ix.cols, conds) >= s }) {
			keyed, score = u, s
		}
	}
	if keyed != nil {
		best, score = nil, 0
	}
	for _, ix := range t.candidates(keyed) {
		p := &accessPath{ix: ix}
		for _, c := range ix.cols {
			cc := conds.at(c)
			if cc == nil || !cc.hasEq && !cc.isNull && !cc.never {
				break
			}
			p.empty = p.empty || cc.never
			p.r.eq = append(p.r.eq, cc.eq) // NULL for IS NULL
		}
		s := 2 * len(p.r.eq)
		if k := len(p.r.eq); k < len(ix.cols) {
			if cc := conds.at(ix.cols[k]); cc != nil && (cc.hasLo || cc.hasHi) {
				p.r.bounded = true
				p.r.lo, p.r.hasLo, p.r.loIncl = cc.lo, cc.hasLo, cc.loIncl
				p.r.hi, p.r.hasHi, p.r.hiIncl = cc.hi, cc.hasHi, cc.hiIncl
				s++
			}
		}
		if s > score {
			best, score = p, s
		}
	}
	return t.exprPath(where, conds, best, score)
}

// orderedScore is what an ordered index of cols would score for conds:
// two per leading column fixed, one for a range on the next.
func orderedScore(cols []int, conds colConds) int {
	s := 0
	for _, c := range cols {
		cc := conds.at(c)
		if cc == nil {
			break
		}
		if cc.hasEq || cc.isNull || cc.never {
			s += 2
			continue
		}
		if cc.hasLo || cc.hasHi {
			s++
		}
		break
	}
	return s
}

// candidates returns the ordered indexes accessPath weighs: those CREATE
// INDEX made, and keyed's (built now if need be) when keyed is set.
func (t *table) candidates(keyed *uniqueIndex) []*namedIndex {
	if keyed == nil {
		return t.indexes
	}
	for _, ix := range t.keyOrders {
		if ix.name == keyed.name {
			return []*namedIndex{ix}
		}
	}
	ix := &namedIndex{name: keyed.name, cols: keyed.cols, ord: newOrderedIndex(keyed.cols)}
	ix.ord.build(t)
	t.keyOrders = append(t.keyOrders, ix)
	return []*namedIndex{ix}
}

// eachOnPath calls fn, in row id order, for the rows p finds, until fn
// returns false. The rows may fail the rest of the WHERE: the caller
// filters them.
func (t *table) eachOnPath(p *accessPath, fn func(id uint64, row value.Row) bool) {
	switch {
	case p.empty:
	case p.alts != nil:
		var found []ordEntry
		for _, a := range p.alts {
			t.eachOnPath(a, func(id uint64, row value.Row) bool {
				found = append(found, ordEntry{row: row, id: id})
				return true
			})
		}
		eachByID(found, fn)
	case p.unique != nil:
		if p.unique.deferrable {
			t.eachByDeferrableKey(p.unique, p.probe, fn)
		} else if id, row, ok := t.byKey(p.unique, p.probe); ok {
			fn(id, row)
		}
	case p.xix != nil:
		t.eachOnExprPath(p, fn)
	case p.ix == nil:
		t.eachByPrefix(p.prefixCol, p.prefixVal, fn)
	default:
		var found []ordEntry
		p.ix.ord.scan(&p.r, func(id uint64, row value.Row) bool {
			found = append(found, ordEntry{row: row, id: id})
			return true
		})
		eachByID(found, fn)
	}
}

// eachByID calls fn for the rows found in row id order, each once, until
// fn returns false.
func eachByID(found []ordEntry, fn func(id uint64, row value.Row) bool) {
	slices.SortFunc(found, func(a, b ordEntry) int { return cmp.Compare(a.id, b.id) })
	for i, e := range found {
		if i > 0 && found[i-1].id == e.id {
			continue
		}
		if !fn(e.id, e.row) {
			return
		}
	}
}

// describe says which index p uses, and for what, for EXPLAIN.
func (p *accessPath) describe(t *table) string {
	text := func(v value.Value) string {
		s := string(value.AppendText(nil, v))
		switch k := v.Kind(); {
		case k.IsInteger(), k == value.Float4, k == value.Float8, k == value.Numeric:
			return s
		}
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	switch {
	case p.alts != nil:
		var each []string
		for _, a := range p.alts {
			each = append(each, a.describe(t))
		}
		return strings.Join(each, "; ")
	case p.unique != nil:
		var conds []string
		for _, c := range p.unique.cols {
			conds = append(conds, t.cols[c].Name+" = "+text(p.probe[c]))
		}
		return fmt.Sprintf("Index Scan using %s on %s: %s", p.unique.name, t.name, strings.Join(conds, " AND "))
	case p.xix != nil:
		return p.describeExpr(t, text)
	case p.ix == nil:
		return fmt.Sprintf("Index Scan using the leading column of %s on %s: %s = %s", p.prefixOf.name, t.name, t.cols[p.prefixCol].Name, text(p.prefixVal))
	}
	conds := rangeConds(&p.r, func(i int) string { return t.cols[p.ix.cols[i]].Name }, text)
	return fmt.Sprintf("Index Scan using %s on %s: %s", p.ix.name, t.name, strings.Join(conds, " AND "))
}

// rangeConds writes r as conditions on the index's key elements, named
// by name.
func rangeConds(r *keyRange, name func(int) string, text func(value.Value) string) []string {
	var conds []string
	for i, v := range r.eq {
		if v.IsNull() {
			conds = append(conds, name(i)+" IS NULL")
		} else {
			conds = append(conds, name(i)+" = "+text(v))
		}
	}
	if r.bounded {
		n := name(len(r.eq))
		if r.hasLo {
			op := " > "
			if r.loIncl {
				op = " >= "
			}
			conds = append(conds, n+op+text(r.lo))
		}
		if r.hasHi {
			op := " < "
			if r.hiIncl {
				op = " <= "
			}
			conds = append(conds, n+op+text(r.hi))
		}
	}
	return conds
}
