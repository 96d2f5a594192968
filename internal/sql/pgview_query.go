package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/value"
)

// pquery is one SELECT of a view as PostgreSQL's analysis leaves it for
// ruleutils: its relations named uniquely across the enclosing levels,
// its clauses typed. It keeps no state beyond the tree.
type pquery struct {
	p         *ptyper
	with      []*pcte
	recursive bool
	set       *psetop // a UNION, INTERSECT or EXCEPT; leaves hold the rest
	// values are a VALUES list's rows; targets then hold its columns'
	// names and types.
	values [][]*pexpr
	// distinct is DISTINCT; distinctOn its ON list.
	distinct   bool
	distinctOn []*pexpr
	targets    []vtarget
	from       []*pfrom
	where      *pexpr
	group      []*pgroup
	having     *pexpr
	windows    []*pwindow // the WINDOW clause's, then the unnamed ones
	sort       []psort
	offset     *pexpr
	limit      *pexpr
	limitAll   bool
}

// types are the query's output column types.
func (q *pquery) types() []value.Type {
	if q.set != nil {
		return q.set.types
	}
	out := make([]value.Type, len(q.targets))
	for i, t := range q.targets {
		out[i] = t.x.t
	}
	return out
}

// names are the query's output column names.
func (q *pquery) names() []string {
	for q.set != nil {
		q = q.set.leftmost()
	}
	out := make([]string, len(q.targets))
	for i, t := range q.targets {
		out[i] = t.name
	}
	return out
}

// psetop is a set operation over two inputs, each a leaf SELECT or
// another set operation; types are its columns' common types.
type psetop struct {
	op    string // UNION, INTERSECT, EXCEPT
	all   bool
	l, r  *pquery // a leaf (set nil) or a set operation (set non-nil, nothing else)
	types []value.Type
}

func (s *psetop) leftmost() *pquery { return s.l }

// psort is one ORDER BY item.
type psort struct {
	x     *pexpr
	desc  bool
	nulls string // " NULLS FIRST" or " NULLS LAST" where not the default
}

// pgroup is one GROUP BY item: an expression, or a grouping set (kind
// ROLLUP, CUBE, GROUPING SETS, or "()" for the empty set) of items.
type pgroup struct {
	x    *pexpr
	kind string
	sets []*pgroup
}

// pwindow is a window: named (WINDOW w AS …) or written inline.
type pwindow struct {
	name, ref string
	part      []*pexpr
	order     []psort
	frame     []framePart // nil for the default frame
	key       string      // what makes two inline windows the same
}

// pcte is one WITH query.
type pcte struct {
	name  string
	cols  []string
	mat   string // "MATERIALIZED " or "NOT MATERIALIZED "
	q     *pquery
	types []value.Type
	outs  []string // its columns' names
}

// scopeEnv is what a query level sees of the levels around it: the
// columns of enclosing levels (cols, nil at the top), the relation
// names they use, and the WITH queries in scope.
type scopeEnv struct {
	cols  *ptyper
	names map[string]int
	ctes  []*pcte
}

// viewAnalyzer types a view's query level by level.
type viewAnalyzer struct {
	rels RelColumns
	// types resolves user enum types' names; nil for none.
	types EnumTypes
}

// query analyses sel. names, when it has one per output, names the
// outputs (a view's columns); leaf marks a set operation's input, whose
// untyped literals the operation types.
func (a *viewAnalyzer) query(sel *pg_query.SelectStmt, env scopeEnv, names []string, leaf bool) (*pquery, error) {
	if sel.IntoClause != nil || len(sel.LockingClause) > 0 || sel.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES ||
		sel.GroupDistinct {
		return nil, errNoDeparse
	}
	if len(sel.ValuesLists) > 0 {
		if leaf {
			return nil, errNoDeparse // a set operation's VALUES prints as a SELECT from "*VALUES*"
		}
		return a.valuesQuery(sel, env)
	}
	q := &pquery{}
	p := &ptyper{aggs: true, rels: []*prel{}, outer: env.cols, an: a, q: q}
	q.p = p
	// This level's names first: PostgreSQL names the whole range table
	// before it prints any of it, so a nested query's relation that
	// shares a name with one of this level's is renamed.
	own := copyNames(env.names)
	var refs []string
	for _, f := range sel.FromClause {
		if err := fromRefnames(f, &refs); err != nil {
			return nil, err
		}
	}
	unique := make([]string, len(refs))
	for i, r := range refs {
		unique[i] = uniqueName(own, r)
	}
	p.names = own
	ctes := env.ctes
	if sel.WithClause != nil {
		var err error
		if ctes, err = a.with(q, sel.WithClause, scopeEnv{cols: env.cols, names: own, ctes: ctes}); err != nil {
			return nil, err
		}
	}
	p.ctes = ctes
	if sel.Op != pg_query.SetOperation_SETOP_NONE {
		if len(sel.FromClause) > 0 || len(sel.TargetList) > 0 {
			return nil, errNoDeparse
		}
		set, err := a.setop(sel, scopeEnv{cols: env.cols, names: own, ctes: ctes}, names)
		if err != nil {
			return nil, err
		}
		q.set = set
		if err := a.setopTail(q, sel); err != nil {
			return nil, err
		}
		return q, nil
	}
	if len(sel.FromClause) == 0 && (sel.WhereClause != nil || len(sel.GroupClause) > 0 || sel.HavingClause != nil) {
		return nil, errNoDeparse
	}
	fe := &fromEnv{a: a, p: p, unique: unique, outer: scopeEnv{cols: env.cols, names: own, ctes: ctes}}
	for _, item := range sel.FromClause {
		f, err := fe.item(item)
		if err != nil {
			return nil, err
		}
		q.from = append(q.from, f)
		fe.visible = append(fe.visible, f)
	}
	p.from = q.from
	for _, w := range sel.WindowClause {
		wd := w.GetWindowDef()
		if wd == nil || wd.Name == "" {
			return nil, errNoDeparse
		}
		win, err := p.windowDef(wd)
		if err != nil {
			return nil, err
		}
		win.name = wd.Name
		q.windows = append(q.windows, win)
	}
	targets, err := a.targets(p, sel.TargetList, names, leaf)
	if err != nil {
		return nil, err
	}
	q.targets = targets
	if len(sel.DistinctClause) > 0 {
		if len(sel.DistinctClause) == 1 && sel.DistinctClause[0].Node == nil {
			q.distinct = true
		} else {
			for _, n := range sel.DistinctClause {
				x, err := p.sortGroupExpr(n, targets)
				if err != nil {
					return nil, err
				}
				q.distinctOn = append(q.distinctOn, x)
			}
		}
	}
	if sel.WhereClause != nil {
		if q.where, err = p.boolean(sel.WhereClause); err != nil {
			return nil, err
		}
	}
	for _, g := range sel.GroupClause {
		grp, err := p.groupItem(g, targets, true)
		if err != nil {
			return nil, err
		}
		q.group = append(q.group, grp)
	}
	if sel.HavingClause != nil {
		if q.having, err = p.boolean(sel.HavingClause); err != nil {
			return nil, err
		}
	}
	if q.sort, err = p.sortClause(sel.SortClause, targets); err != nil {
		return nil, err
	}
	if err := p.limits(q, sel); err != nil {
		return nil, err
	}
	return q, nil
}

// setopTail is a set operation's ORDER BY and LIMIT: by output column.
func (a *viewAnalyzer) setopTail(q *pquery, sel *pg_query.SelectStmt) error {
	left := q.set.leftmost()
	for left.set != nil {
		left = left.set.leftmost()
	}
	cols := make([]vtarget, len(q.set.types))
	for i, t := range q.set.types {
		cols[i] = vtarget{x: &pexpr{k: pConst, lit: itoa(i + 1), t: t, colno: i + 1}, name: left.targets[i].name}
	}
	for _, s := range sel.SortClause {
		sb := s.GetSortBy()
		if sb == nil || sb.UseOp != nil {
			return errNoDeparse
		}
		var x *pexpr
		if c := sb.Node.GetAConst(); c != nil && c.GetIval() != nil {
			i := int(c.GetIval().Ival)
			if i < 1 || i > len(cols) {
				return errNoDeparse
			}
			x = cols[i-1].x
		} else if cr := sb.Node.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
			name := cr.Fields[0].GetString_().Sval
			for _, c := range cols {
				if c.name == name {
					if x != nil {
						return errNoDeparse
					}
					x = c.x
				}
			}
		}
		if x == nil {
			return errNoDeparse
		}
		q.sort = append(q.sort, sortItem(x, sb))
	}
	return q.p.limits(q, sel)
}

// limits types OFFSET and LIMIT.
func (p *ptyper) limits(q *pquery, sel *pg_query.SelectStmt) error {
	for _, c := range []struct {
		n     *pg_query.Node
		limit bool
	}{{sel.LimitOffset, false}, {sel.LimitCount, true}} {
		if c.n == nil {
			continue
		}
		x, err := p.build(c.n)
		if err != nil {
			return err
		}
		if c.limit && x.k == pConst && x.null {
			q.limitAll = true
			continue
		}
		if x.t.Kind != value.Int4 && x.t.Kind != value.Int8 {
			return errNoDeparse
		}
		if c.limit {
			q.limit = x
		} else {
			q.offset = x
		}
	}
	return nil
}

// sortClause types an ORDER BY list.
func (p *ptyper) sortClause(list []*pg_query.Node, targets []vtarget) ([]psort, error) {
	var out []psort
	for _, s := range list {
		sb := s.GetSortBy()
		if sb == nil || sb.UseOp != nil {
			return nil, errNoDeparse
		}
		var x *pexpr
		var err error
		if targets != nil {
			x, err = p.sortGroupExpr(sb.Node, targets)
		} else {
			x, err = p.build(sb.Node)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, sortItem(x, sb))
	}
	return out, nil
}

func sortItem(x *pexpr, sb *pg_query.SortBy) psort {
	s := psort{x: x, desc: sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC}
	switch sb.SortbyNulls {
	case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
		if !s.desc {
			s.nulls = " NULLS FIRST"
		}
	case pg_query.SortByNulls_SORTBY_NULLS_LAST:
		if s.desc {
			s.nulls = " NULLS LAST"
		}
	}
	return s
}

// boolean types a WHERE, HAVING or ON condition.
func (p *ptyper) boolean(n *pg_query.Node) (*pexpr, error) {
	x, err := p.build(n)
	if err != nil {
		return nil, err
	}
	return p.coerce(x, value.BoolType, false)
}

// groupItem types one GROUP BY item; top allows grouping sets.
func (p *ptyper) groupItem(n *pg_query.Node, targets []vtarget, top bool) (*pgroup, error) {
	if gs := n.GetGroupingSet(); gs != nil {
		g := &pgroup{}
		switch gs.Kind {
		case pg_query.GroupingSetKind_GROUPING_SET_EMPTY:
			g.kind = "()"
			return g, nil
		case pg_query.GroupingSetKind_GROUPING_SET_ROLLUP:
			g.kind = "ROLLUP"
		case pg_query.GroupingSetKind_GROUPING_SET_CUBE:
			g.kind = "CUBE"
		case pg_query.GroupingSetKind_GROUPING_SET_SETS:
			g.kind = "GROUPING SETS"
		default:
			return nil, errNoDeparse
		}
		if !top && g.kind == "GROUPING SETS" {
			return nil, errNoDeparse // nested sets flatten in PostgreSQL's analysis
		}
		for _, c := range gs.Content {
			sub, err := p.groupItem(c, targets, false)
			if err != nil {
				return nil, err
			}
			g.sets = append(g.sets, sub)
		}
		return g, nil
	}
	if l := n.GetRowExpr(); l != nil && !top {
		g := &pgroup{kind: "("}
		for _, c := range l.Args {
			x, err := p.sortGroupExpr(c, targets)
			if err != nil {
				return nil, err
			}
			g.sets = append(g.sets, &pgroup{x: x})
		}
		return g, nil
	}
	x, err := p.sortGroupExpr(n, targets)
	if err != nil {
		return nil, err
	}
	return &pgroup{x: x}, nil
}

// vtarget is one output column: its expression and name.
type vtarget struct {
	x    *pexpr
	name string
}

// targets types a SELECT list, * expanded as the FROM clause gives it.
func (a *viewAnalyzer) targets(p *ptyper, list []*pg_query.Node, names []string, leaf bool) ([]vtarget, error) {
	var out []vtarget
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, errNoDeparse
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			switch len(cr.Fields) {
			case 1:
				for _, f := range p.from {
					out = append(out, f.star()...)
				}
			case 2:
				r := p.relByRef(cr.Fields[0].GetString_().GetSval())
				if r == nil {
					return nil, errNoDeparse
				}
				out = append(out, r.star()...)
			default:
				return nil, errNoDeparse
			}
			continue
		}
		x, err := p.build(rt.Val)
		if err != nil {
			return nil, err
		}
		if x.t.Kind == value.Unknown && !(leaf && x.k == pConst) {
			if x, err = p.coerce(x, value.TextType, false); err != nil {
				return nil, err
			}
		}
		name := rt.Name
		if name == "" {
			name = figureName(rt.Val)
		}
		out = append(out, vtarget{x: x, name: name})
	}
	if len(names) == len(out) {
		for i := range out {
			out[i].name = names[i]
		}
	}
	return out, nil
}

// sortGroupExpr is a GROUP BY, ORDER BY or DISTINCT ON item: an output
// column's expression when it names one by position or by name.
func (p *ptyper) sortGroupExpr(n *pg_query.Node, targets []vtarget) (*pexpr, error) {
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		i := int(c.GetIval().Ival)
		if i < 1 || i > len(targets) {
			return nil, errNoDeparse
		}
		return targets[i-1].x, nil
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 {
		if x, err := p.build(n); err == nil {
			return x, nil
		}
		name := cr.Fields[0].GetString_().GetSval()
		for _, t := range targets {
			if t.name == name {
				return t.x, nil
			}
		}
		return nil, errNoDeparse
	}
	return p.build(n)
}

// setop analyses a set operation's tree; each leaf is a level of its
// own that sees the same enclosing levels.
func (a *viewAnalyzer) setop(sel *pg_query.SelectStmt, env scopeEnv, names []string) (*psetop, error) {
	s := &psetop{all: sel.All}
	switch sel.Op {
	case pg_query.SetOperation_SETOP_UNION:
		s.op = "UNION"
	case pg_query.SetOperation_SETOP_INTERSECT:
		s.op = "INTERSECT"
	case pg_query.SetOperation_SETOP_EXCEPT:
		s.op = "EXCEPT"
	default:
		return nil, errNoDeparse
	}
	side := func(n *pg_query.SelectStmt, names []string) (*pquery, []value.Type, error) {
		if n.Op != pg_query.SetOperation_SETOP_NONE && n.WithClause == nil && len(n.SortClause) == 0 && n.LimitCount == nil && n.LimitOffset == nil {
			sub, err := a.setop(n, env, names)
			if err != nil {
				return nil, nil, err
			}
			return &pquery{set: sub}, sub.types, nil
		}
		q, err := a.query(n, env, names, true)
		if err != nil {
			return nil, nil, err
		}
		return q, q.types(), nil
	}
	l, lt, err := side(sel.Larg, names)
	if err != nil {
		return nil, err
	}
	r, rt, err := side(sel.Rarg, names)
	if err != nil {
		return nil, err
	}
	if len(lt) != len(rt) {
		return nil, errNoDeparse
	}
	s.l, s.r = l, r
	for i := range lt {
		t, err := commonType([]*pexpr{{t: lt[i]}, {t: rt[i]}})
		if err != nil {
			return nil, err
		}
		for _, q := range []*pquery{l, r} {
			if q.set == nil && q.targets[i].x.t.Kind == value.Unknown {
				if q.targets[i].x, err = q.p.coerce(q.targets[i].x, t, false); err != nil {
					return nil, err
				}
			}
		}
		s.types = append(s.types, t)
	}
	return s, nil
}

// with analyses a WITH clause; each query sees the ones before it (and
// itself when RECURSIVE).
func (a *viewAnalyzer) with(q *pquery, w *pg_query.WithClause, env scopeEnv) ([]*pcte, error) {
	q.recursive = w.Recursive
	ctes := append([]*pcte(nil), env.ctes...)
	for _, n := range w.Ctes {
		c := n.GetCommonTableExpr()
		if c == nil || c.SearchClause != nil || c.CycleClause != nil {
			return nil, errNoDeparse
		}
		sel := c.Ctequery.GetSelectStmt()
		if sel == nil {
			return nil, errNoDeparse
		}
		cte := &pcte{name: c.Ctename}
		for _, cn := range c.Aliascolnames {
			cte.cols = append(cte.cols, cn.GetString_().GetSval())
		}
		switch c.Ctematerialized {
		case pg_query.CTEMaterialize_CTEMaterializeAlways:
			cte.mat = "MATERIALIZED "
		case pg_query.CTEMaterialize_CTEMaterializeNever:
			cte.mat = "NOT MATERIALIZED "
		}
		inner := env
		if w.Recursive {
			// The recursive reference reads the non-recursive term's
			// columns: type that first.
			if sel.Op == pg_query.SetOperation_SETOP_UNION && sel.Larg != nil {
				first, err := a.query(sel.Larg, scopeEnv{cols: env.cols, names: env.names, ctes: ctes}, nil, true)
				if err != nil {
					return nil, err
				}
				cte.types = first.types()
				cte.outs = cteOuts(cte.cols, first.names())
				for i, t := range cte.types {
					if t.Kind == value.Unknown {
						cte.types[i] = value.TextType
					}
				}
			}
			inner.ctes = append(append([]*pcte(nil), ctes...), cte)
		} else {
			inner.ctes = ctes
		}
		cq, err := a.query(sel, inner, nil, false)
		if err != nil {
			return nil, err
		}
		cte.q = cq
		types := cq.types()
		if cte.types != nil && !equalTypes(cte.types, types) {
			return nil, errNoDeparse
		}
		cte.types = types
		cte.outs = cteOuts(cte.cols, cq.names())
		if len(cte.outs) != len(types) {
			return nil, errNoDeparse
		}
		ctes = append(ctes, cte)
		q.with = append(q.with, cte)
	}
	return ctes, nil
}

func cteOuts(aliases, names []string) []string {
	if len(aliases) > len(names) {
		return nil
	}
	out := append([]string(nil), names...)
	copy(out, aliases)
	return out
}

func equalTypes(a, b []value.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind {
			return false
		}
	}
	return true
}

func copyNames(m map[string]int) map[string]int {
	out := make(map[string]int, len(m)+4)
	for k := range m {
		out[k] = 0 // PostgreSQL does not count on from an enclosing level's suffixes
	}
	return out
}

// uniqueName is set_rtable_names' choice for refname: itself when no
// level in scope uses it, else refname_N with the first N free.
func uniqueName(used map[string]int, refname string) string {
	if refname == "" {
		return ""
	}
	if _, found := used[refname]; !found {
		used[refname] = 0
		return refname
	}
	for {
		used[refname]++
		name := refname + "_" + itoa(used[refname])
		if _, found := used[name]; !found {
			used[name] = 0
			return name
		}
	}
}
