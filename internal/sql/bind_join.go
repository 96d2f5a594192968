package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// joinsMaintained is set once views compile joins to incremental operators.
const joinsMaintained = true

var joinKinds = map[pg_query.JoinType]plan.JoinKind{
	pg_query.JoinType_JOIN_INNER: plan.InnerJoin,
	pg_query.JoinType_JOIN_LEFT:  plan.LeftJoin,
	pg_query.JoinType_JOIN_RIGHT: plan.RightJoin,
	pg_query.JoinType_JOIN_FULL:  plan.FullJoin,
}

// bindJoin binds JOIN … ON / USING / NATURAL and CROSS JOIN.
func (b *binder) bindJoin(j *pg_query.JoinExpr) (plan.Node, *scope, error) {
	kind, ok := joinKinds[j.Jointype]
	if !ok {
		return nil, nil, b.refuse(b.keyword("join", 0), "join type %s is not supported", j.Jointype)
	}
	if j.Alias != nil || j.JoinUsingAlias != nil {
		inner := proto.Clone(j).(*pg_query.JoinExpr)
		inner.Alias, inner.JoinUsingAlias = nil, nil
		p, sc, err := b.bindJoin(inner)
		if err != nil {
			return nil, nil, err
		}
		if j.JoinUsingAlias != nil {
			sc = usingAlias(sc, j.JoinUsingAlias.Aliasname)
		}
		if j.Alias != nil {
			return b.joinAlias(p, sc, j.Alias)
		}
		return p, sc, nil
	}
	if b.forView && !joinsMaintained {
		return nil, nil, b.refuse(b.keyword("join", 0), "joins are not maintained in a view yet")
	}
	l, lsc, err := b.bindFromItem(j.Larg)
	if err != nil {
		return nil, nil, err
	}
	lateral := isLateral(j.Rarg)
	if lateral {
		b.lateral = lsc
	}
	r, rsc, err := b.bindFromItem(j.Rarg)
	if err != nil {
		return nil, nil, err
	}
	if err := b.checkDuplicateAliases(lsc, rsc, fromLoc(j.Rarg)); err != nil {
		return nil, nil, err
	}
	lsc, rsc = nullExtended(kind, lsc, rsc)
	if lateral && plan.HasOuter(r) {
		if kind != plan.InnerJoin && kind != plan.LeftJoin {
			return nil, nil, b.stmt.errf(fromLoc(j.Rarg), pgerr.InvalidColumnRef, "the combining JOIN type must be INNER or LEFT for a LATERAL reference")
		}
		if using := usingNames(j, lsc, rsc); len(using) > 0 {
			pairs, err := b.usingPairs(lsc, rsc, using)
			if err != nil {
				return nil, nil, err
			}
			// The USING columns' equalities are the join's condition.
			lw := len(lsc.cols)
			on := &expr.And{}
			for _, u := range pairs {
				on.Args = append(on.Args, &expr.Cmp{Op: expr.EQ, L: u.lk, R: plan.Shift(u.rk, lw)})
			}
			p, err := b.lateralJoin(l, lsc, r, kind, on, fromLoc(j.Rarg))
			if err != nil {
				return nil, nil, err
			}
			p, sc := mergeUsing(p, kind, lsc, rsc, pairs)
			return p, sc, nil
		}
		sc := joinScope(lsc, rsc)
		var on expr.Expr
		plain, withSub := splitSubConjuncts(j.Quals)
		if plain != nil {
			pred, err := b.bindExpr(sc, plain)
			if err != nil {
				return nil, nil, err
			}
			if on, err = b.toBool(pred, "JOIN/ON", nodeLoc(plain, -1)); err != nil {
				return nil, nil, err
			}
		}
		if len(withSub) == 0 {
			p, err := b.lateralJoin(l, lsc, r, kind, on, fromLoc(j.Rarg))
			return p, sc, err
		}
		// The conjuncts with a subquery filter the pairs as a WHERE
		// would; a LEFT join then adds the left rows no pair kept.
		inner, err := b.lateralJoin(l, lsc, r, plan.InnerJoin, on, fromLoc(j.Rarg))
		if err != nil {
			return nil, nil, err
		}
		p, err := b.filterOnSubqueries(inner, l, nil, kind, inner.Columns(), sc, len(lsc.cols), withSub)
		return p, sc, err
	}
	cols := append(append([]plan.Column{}, l.Columns()...), r.Columns()...)
	join := &plan.Join{Kind: kind, Left: l, Right: r, Cols: cols}
	sc := joinScope(lsc, rsc)

	if using := usingNames(j, lsc, rsc); len(using) > 0 {
		pairs, err := b.usingPairs(lsc, rsc, using)
		if err != nil {
			return nil, nil, err
		}
		for _, u := range pairs {
			join.LeftKeys = append(join.LeftKeys, expr.EqualityKey(u.lk))
			join.RightKeys = append(join.RightKeys, expr.EqualityKey(u.rk))
		}
		p, sc := mergeUsing(join, kind, lsc, rsc, pairs)
		return p, sc, nil
	}
	if j.Quals == nil {
		return join, sc, nil
	}
	plain, withSub := splitSubConjuncts(j.Quals)
	if plain != nil {
		pred, err := b.bindExpr(sc, plain)
		if err != nil {
			return nil, nil, err
		}
		if pred, err = b.toBool(pred, "JOIN/ON", nodeLoc(plain, -1)); err != nil {
			return nil, nil, err
		}
		join.Residual = pred
		join = plan.ExtractJoinKeys.Apply(join).(*plan.Join)
	}
	if len(withSub) == 0 {
		return join, sc, nil
	}
	p, err := b.joinOnSubqueries(join, sc, len(lsc.cols), withSub)
	return p, sc, err
}

// usingNames lists the columns a NATURAL join or USING clause joins on.
func usingNames(j *pg_query.JoinExpr, lsc, rsc *scope) []string {
	var using []string
	if j.IsNatural {
		for _, lc := range lsc.cols {
			if lc.merged || lc.system {
				continue
			}
			for _, rc := range rsc.cols {
				if !rc.merged && !rc.system && rc.name == lc.name {
					using = append(using, lc.name)
					break
				}
			}
		}
	}
	for _, n := range j.UsingClause {
		using = append(using, n.GetString_().Sval)
	}
	return using
}

// usingPair is a column of USING: its index on each side, and each side's
// value coerced to their common type.
type usingPair struct {
	name   string
	li, ri int
	t      value.Type
	lk, rk expr.Expr // rk over the right's columns alone
}

// usingPairs finds the named columns on each side, as PostgreSQL does.
func (b *binder) usingPairs(lsc, rsc *scope, using []string) ([]usingPair, error) {
	find := func(s *scope, name, side string) (int, error) {
		idx := -1
		for i, c := range s.cols {
			if c.name == name && !c.merged && !c.system {
				if idx >= 0 {
					return 0, pgerr.New(pgerr.AmbiguousColumn, "common column name %q appears more than once in %s table", name, side)
				}
				idx = i
			}
		}
		if idx < 0 {
			return 0, pgerr.New(pgerr.UndefinedColumn, "column %q specified in USING clause does not exist in %s table", name, side)
		}
		return idx, nil
	}
	pairs := make([]usingPair, 0, len(using))
	for _, name := range using {
		li, err := find(lsc, name, "left")
		if err != nil {
			return nil, err
		}
		ri, err := find(rsc, name, "right")
		if err != nil {
			return nil, err
		}
		lt, rt := lsc.cols[li].typ, rsc.cols[ri].typ
		t, err := expr.CommonType([]value.Type{lt, rt}, "JOIN/USING")
		if err != nil {
			return nil, err
		}
		if _, err := expr.ResolveCompare(t, t); err != nil {
			return nil, err // json and xml have no equality
		}
		lk, err := expr.Coerce(&expr.Col{Idx: li, T: lt, Name: name}, t, false)
		if err != nil {
			return nil, err
		}
		rk, err := expr.Coerce(&expr.Col{Idx: ri, T: rt, Name: name}, t, false)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, usingPair{name: name, li: li, ri: ri, t: t, lk: lk, rk: rk})
		b.noteUsing(lsc, li)
		b.noteUsing(rsc, ri)
	}
	return pairs, nil
}

// mergeUsing merges each USING pair of in's columns (the left's then the
// right's) into one output column, as PostgreSQL does: the merged columns
// come first in *, then the rest of the left's, then the rest of the
// right's.
func mergeUsing(in plan.Node, kind plan.JoinKind, lsc, rsc *scope, pairs []usingPair) (plan.Node, *scope) {
	lw := len(lsc.cols)
	sc := joinScope(lsc, rsc)
	exprs := make([]expr.Expr, 0, len(sc.cols)+len(pairs))
	outCols := append([]plan.Column{}, in.Columns()...)
	for i, c := range sc.cols {
		exprs = append(exprs, &expr.Col{Idx: i, T: c.typ, Name: c.name})
	}
	var star []int
	isUsing := map[int]bool{}
	for _, u := range pairs {
		isUsing[u.li], isUsing[lw+u.ri] = true, true
		sc.cols[u.li].merged, sc.cols[lw+u.ri].merged = true, true
		var merged expr.Expr
		// The merged column stands for one input's column, as in
		// PostgreSQL (messages name it, GROUP BY over it groups that
		// table's key), or for the first of the two (FULL JOIN).
		like := sc.cols[u.li]
		switch kind {
		case plan.RightJoin:
			merged = plan.Shift(u.rk, lw)
			like = sc.cols[lw+u.ri]
		case plan.FullJoin:
			merged = &expr.Coalesce{Args: []expr.Expr{u.lk, plan.Shift(u.rk, lw)}, T: u.t}
		default:
			merged = u.lk
			// An inner join may use either; PostgreSQL's prefers the one
			// needing no coercion (-0 real = 0 double shows the double).
			_, lcol := u.lk.(*expr.Col)
			if _, rcol := u.rk.(*expr.Col); kind == plan.InnerJoin && !lcol && rcol {
				merged, like = plan.Shift(u.rk, lw), sc.cols[lw+u.ri]
			}
		}
		if _, ok := merged.(*expr.Col); !ok {
			like.rel = nil // a coerced column is no longer the key's
		}
		star = append(star, len(exprs))
		exprs = append(exprs, merged)
		outCols = append(outCols, plan.Column{Name: u.name, Type: u.t})
		var src Origin
		if _, ok := merged.(*expr.Col); ok {
			src = like.source() // a FULL JOIN's or a coerced column is none
		}
		sc.cols = append(sc.cols, scopeCol{name: u.name, typ: u.t, rel: like.rel, relCol: like.relCol, pgName: like.refName(), src: src})
	}
	for _, i := range joinScope(lsc, rsc).starCols() {
		if !isUsing[i] {
			star = append(star, i)
		}
	}
	sc.star = star
	return &plan.Project{Input: in, Exprs: exprs, Cols: outCols}, sc
}

// isLateral reports whether a FROM item may read the items before it: a
// LATERAL subquery, or a function call or XMLTABLE (implicitly LATERAL).
func isLateral(n *pg_query.Node) bool {
	if rs := n.GetRangeSubselect(); rs != nil {
		return rs.Lateral
	}
	return n.GetRangeFunction() != nil || n.GetRangeTableFunc() != nil
}

// lateralJoin joins l to r, a FROM item that reads l's columns as outer
// references: r is decorrelated over the distinct values it reads, joined
// on them, and on (over l ++ r) is the join's condition. The result's
// columns are l's then r's.
func (b *binder) lateralJoin(l plan.Node, lsc *scope, r plan.Node, kind plan.JoinKind, on expr.Expr, loc int32) (plan.Node, error) {
	if tf := directTableFunc(l, r, kind); tf != nil {
		if on != nil {
			return &plan.Filter{Input: tf, Pred: on}, nil
		}
		return tf, nil
	}
	join, err := b.joinSub(level{sc: lsc}, r, kind, nil, nil, loc)
	if err != nil {
		return nil, err
	}
	j := join(l).(*plan.Join)
	lw, w := len(l.Columns()), len(plan.Free(r))
	if on != nil {
		j.Residual = expr.Rewrite(on, func(x expr.Expr) expr.Expr {
			if c, ok := x.(*expr.Col); ok && c.Idx >= lw {
				return &expr.Col{Idx: c.Idx + w, T: c.T, Name: c.Name}
			}
			return x
		})
		j = plan.ExtractJoinKeys.Apply(j).(*plan.Join)
	}
	cols := j.Columns()
	exprs := make([]expr.Expr, 0, len(cols)-w)
	out := make([]plan.Column, 0, len(cols)-w)
	for i, c := range cols {
		if i >= lw && i < lw+w {
			continue
		}
		exprs = append(exprs, &expr.Col{Idx: i, T: c.Type, Name: c.Name})
		out = append(out, c)
	}
	return &plan.Project{Input: j, Exprs: exprs, Cols: out}, nil
}

// orderJoins plans the inner joins of a FROM clause by their keys, the
// row counts of the relations they read and those relations' unique keys, whatever the order they were
// written in.
func (b *binder) orderJoins(n plan.Node) plan.Node {
	// The counts noted when the relations were resolved: resolving them
	// again would record them as read by the statement itself.
	return plan.OrderJoins(n, func(name string) (float64, [][]int) {
		if r := b.rows[name]; r != nil {
			return float64(r.Rows), r.Uniques
		}
		return 0, nil
	})
}

// directTableFunc returns set-returning functions in FROM that read only
// the columns of the items before them (FROM t, unnest(t.a)) run over l's
// rows themselves, without a join: nil for any other lateral item.
func directTableFunc(l, r plan.Node, kind plan.JoinKind) *plan.TableFunc {
	tf, ok := r.(*plan.TableFunc)
	if !ok || tf.Input != nil || kind != plan.InnerJoin {
		return nil
	}
	for _, o := range plan.Free(r) {
		if o.Depth != 1 { // the items before it are the nearest outer scope
			return nil
		}
	}
	return tf.MapArgs(l, func(e expr.Expr) expr.Expr {
		return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
			if o, ok := x.(*expr.Outer); ok && o.Depth == 1 {
				return &expr.Col{Idx: o.Idx, T: o.T, Name: o.Name}
			}
			return x
		})
	})
}

// joinAlias makes a join named by an alias, (a JOIN b …) AS j(c1, …), a
// relation of its own, as in PostgreSQL: its columns are those * lists,
// renamed by the column aliases, and the joined tables' names are hidden.
func (b *binder) joinAlias(p plan.Node, sc *scope, a *pg_query.Alias) (plan.Node, *scope, error) {
	star := sc.starCols()
	if len(a.Colnames) > len(star) {
		return nil, nil, b.stmt.errf(-1, pgerr.InvalidColumnRef, "table %q has %d columns available but %d columns specified", a.Aliasname, len(star), len(a.Colnames))
	}
	exprs := make([]expr.Expr, len(star))
	cols := make([]plan.Column, len(star))
	for i, c := range star {
		sc := sc.cols[c]
		exprs[i] = &expr.Col{Idx: c, T: sc.typ, Name: sc.name}
		cols[i] = plan.Column{Name: sc.name, Type: sc.typ}
		if i < len(a.Colnames) {
			cols[i].Name = a.Colnames[i].GetString_().Sval
		}
	}
	out := newScope(a.Aliasname, cols)
	for i, c := range star {
		// Each column stands for the joined table's, as in PostgreSQL.
		in := &sc.cols[c]
		out.cols[i].rel, out.cols[i].relCol, out.cols[i].pgName = in.rel, in.relCol, in.refName()
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: cols}, out, nil
}

// usingAlias is the scope of a JOIN … USING (…) AS j: j names the merged
// columns alone, and the joined tables keep their names.
func usingAlias(sc *scope, alias string) *scope {
	out := &scope{cols: slices.Clone(sc.cols), star: sc.star}
	for i := range out.cols {
		if c := &out.cols[i]; c.qual == "" && !c.merged && !c.outer {
			c.qual = alias
		}
	}
	return out
}
