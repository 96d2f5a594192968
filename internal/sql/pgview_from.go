package sql

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/value"
)

// pfrom is one FROM item of a view's query: a relation, a WITH query's
// name or a subquery (rel set), or a join of two items.
type pfrom struct {
	rel *prel
	// relname is a table's or WITH query's name, printed before an
	// alias; sub is a subquery's.
	relname string
	alias   bool // an alias is printed
	sub     *pquery
	// fn is a function's call (rel set); ordinality is WITH
	// ORDINALITY.
	fn         *pexpr
	ordinality bool
	// lateral is LATERAL: written, or a function reading the level's
	// columns.
	lateral bool
	// aliasCols are a subquery's column aliases as printed: all its
	// columns, once any is aliased.
	aliasCols []string

	l, r    *pfrom
	kind    string // " JOIN ", " LEFT JOIN ", …
	on      *pexpr
	using   []string
	merged  []*pexpr // USING's merged columns
	natural bool
}

// prel is one relation of a view's FROM: the name the query refers to
// it by, the name it is printed as, and its columns.
type prel struct {
	ref   string
	out   string
	cols  []string
	types []value.Type
}

func (r *prel) column(i int) *pexpr {
	return &pexpr{k: pCol, lit: r.out, name: r.cols[i], t: r.types[i]}
}

func (r *prel) star() []vtarget {
	out := make([]vtarget, len(r.cols))
	for i, c := range r.cols {
		out[i] = vtarget{x: r.column(i), name: c}
	}
	return out
}

// star is the item's columns as * lists them: a join's merged columns
// first, then the others of each side.
func (f *pfrom) star() []vtarget {
	if f.rel != nil {
		return f.rel.star()
	}
	var out []vtarget
	for i, name := range f.using {
		out = append(out, vtarget{x: f.merged[i], name: name})
	}
	for _, side := range []*pfrom{f.l, f.r} {
		for _, t := range side.star() {
			if !containsString(f.using, t.name) {
				out = append(out, t)
			}
		}
	}
	return out
}

// lookup finds an unqualified column among the item's: the expression
// and how many columns of that name it has.
func (f *pfrom) lookup(name string) (*pexpr, int) {
	if f.rel != nil {
		var found *pexpr
		n := 0
		for i, c := range f.rel.cols {
			if c == name {
				found, n = f.rel.column(i), n+1
			}
		}
		return found, n
	}
	for i, u := range f.using {
		if u == name {
			return f.merged[i], 1
		}
	}
	lx, ln := f.l.lookup(name)
	rx, rn := f.r.lookup(name)
	if lx == nil {
		return rx, rn
	}
	return lx, ln + rn
}

// fromRefnames appends the names a FROM item's range table entries get
// before they are made unique, in the order the parser adds them.
func fromRefnames(n *pg_query.Node, out *[]string) error {
	switch {
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		if rv.Alias != nil {
			*out = append(*out, rv.Alias.Aliasname)
		} else {
			*out = append(*out, rv.Relname)
		}
	case n.GetRangeSubselect() != nil:
		rs := n.GetRangeSubselect()
		if rs.Alias == nil {
			return errNoDeparse
		}
		*out = append(*out, rs.Alias.Aliasname)
	case n.GetRangeFunction() != nil:
		name, err := functionRefname(n.GetRangeFunction())
		if err != nil {
			return err
		}
		*out = append(*out, name)
	case n.GetJoinExpr() != nil:
		j := n.GetJoinExpr()
		if j.Alias != nil || j.JoinUsingAlias != nil {
			return errNoDeparse
		}
		if err := fromRefnames(j.Larg, out); err != nil {
			return err
		}
		if err := fromRefnames(j.Rarg, out); err != nil {
			return err
		}
		*out = append(*out, "") // the join's own entry has no name
	default:
		return errNoDeparse
	}
	return nil
}

// fromEnv analyses one level's FROM items, in the order fromRefnames
// named them.
type fromEnv struct {
	a      *viewAnalyzer
	p      *ptyper
	unique []string
	next   int
	outer  scopeEnv // what a subquery in FROM sees
	// visible are the items a LATERAL item sees: the level's earlier
	// ones and the left inputs of the joins it is in.
	visible []*pfrom
}

// lateralScope is the level as a LATERAL item sees it: the relations
// and items to its left; refs, when not nil, counts the references to
// them.
func (fe *fromEnv) lateralScope(refs *int) *ptyper {
	lp := *fe.p
	lp.from = append([]*pfrom(nil), fe.visible...)
	lp.rels = append([]*prel{}, fe.p.rels...)
	lp.aggs, lp.q, lp.levelRefs = false, nil, refs
	return &lp
}

func (fe *fromEnv) name() string {
	s := fe.unique[fe.next]
	fe.next++
	return s
}

func (fe *fromEnv) item(n *pg_query.Node) (*pfrom, error) {
	p := fe.p
	switch {
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		if rv.Catalogname != "" || rv.Alias != nil && len(rv.Alias.Colnames) > 0 || !rv.Inh {
			return nil, errNoDeparse
		}
		r := &prel{ref: rv.Relname}
		f := &pfrom{rel: r, relname: rv.Relname}
		var cte *pcte
		if rv.Schemaname == "" {
			cte = p.cte(rv.Relname)
		}
		if cte != nil {
			r.cols, r.types = cte.outs, cte.types
		} else {
			if rv.Schemaname != "" && rv.Schemaname != "public" {
				return nil, errNoDeparse
			}
			cols, types, ok := fe.a.rels(rv.Relname)
			if !ok {
				return nil, errNoDeparse
			}
			r.cols, r.types = cols, types
		}
		if rv.Alias != nil {
			r.ref = rv.Alias.Aliasname
		}
		r.out = fe.name()
		f.alias = rv.Alias != nil || r.out != rv.Relname
		return f, fe.add(r)
	case n.GetRangeSubselect() != nil:
		rs := n.GetRangeSubselect()
		sel := rs.Subquery.GetSelectStmt()
		if sel == nil {
			return nil, errNoDeparse
		}
		out := fe.name()
		env := fe.outer
		if rs.Lateral {
			env.cols = fe.lateralScope(nil)
		}
		sub, err := fe.a.query(sel, env, nil, false)
		if err != nil {
			return nil, err
		}
		r := &prel{ref: rs.Alias.Aliasname, out: out, cols: sub.names(), types: sub.types()}
		f := &pfrom{rel: r, sub: sub, alias: true, lateral: rs.Lateral}
		if len(rs.Alias.Colnames) > 0 {
			if len(rs.Alias.Colnames) > len(r.cols) {
				return nil, errNoDeparse
			}
			r.cols = append([]string(nil), r.cols...)
			for i, c := range rs.Alias.Colnames {
				r.cols[i] = c.GetString_().GetSval()
			}
			f.aliasCols = r.cols
		}
		return f, fe.add(r)
	case n.GetRangeFunction() != nil:
		return fe.function(n.GetRangeFunction())
	}
	j := n.GetJoinExpr()
	kind := map[pg_query.JoinType]string{pg_query.JoinType_JOIN_INNER: " JOIN ", pg_query.JoinType_JOIN_LEFT: " LEFT JOIN ",
		pg_query.JoinType_JOIN_RIGHT: " RIGHT JOIN ", pg_query.JoinType_JOIN_FULL: " FULL JOIN "}[j.Jointype]
	if kind == "" {
		return nil, errNoDeparse
	}
	l, err := fe.item(j.Larg)
	if err != nil {
		return nil, err
	}
	save := fe.visible
	fe.visible = append(fe.visible[:len(save):len(save)], l)
	r, err := fe.item(j.Rarg)
	fe.visible = save
	if err != nil {
		return nil, err
	}
	fe.next++ // the join's entry
	f := &pfrom{l: l, r: r, kind: kind, natural: j.IsNatural}
	var using []string
	for _, u := range j.UsingClause {
		using = append(using, u.GetString_().GetSval())
	}
	if j.IsNatural {
		// the columns of the left input that the right has too
		for _, t := range l.star() {
			if _, n := r.lookup(t.name); n > 0 {
				using = append(using, t.name)
			}
		}
		if len(using) == 0 {
			return nil, errNoDeparse // PostgreSQL prints a natural join of nothing in common as ON TRUE
		}
	}
	for _, u := range using {
		lx, ln := l.lookup(u)
		rx, rn := r.lookup(u)
		if ln != 1 || rn != 1 || lx.t.Kind != rx.t.Kind || lx.t.Kind == value.Unknown {
			return nil, errNoDeparse
		}
		switch j.Jointype {
		case pg_query.JoinType_JOIN_RIGHT:
			f.merged = append(f.merged, rx)
		case pg_query.JoinType_JOIN_FULL:
			if lx.t.Mod != rx.t.Mod {
				return nil, errNoDeparse
			}
			// a merged column of a full join is the join's own, by its name
			f.merged = append(f.merged, &pexpr{k: pCol, name: u, t: value.Type{Kind: lx.t.Kind, Mod: lx.t.Mod}})
		default:
			f.merged = append(f.merged, lx)
		}
	}
	f.using = using
	if j.Quals != nil {
		// ON sees the join's inputs
		save := p.from
		p.from = []*pfrom{f}
		on, err := p.boolean(j.Quals)
		p.from = save
		if err != nil {
			return nil, err
		}
		f.on = on
	} else if j.Jointype == pg_query.JoinType_JOIN_INNER && len(using) == 0 {
		f.kind = " CROSS JOIN "
	}
	return f, nil
}

// add puts r among the level's relations; PostgreSQL refuses two of one
// name.
func (fe *fromEnv) add(r *prel) error {
	if fe.p.relByRef(r.ref) != nil {
		return errNoDeparse
	}
	fe.p.rels = append(fe.p.rels, r)
	return nil
}

// relByRef is the level's relation the query calls ref.
func (p *ptyper) relByRef(ref string) *prel {
	for _, r := range p.rels {
		if r.ref == ref {
			return r
		}
	}
	return nil
}

// cte is the WITH query called name in scope, the nearest first.
func (p *ptyper) cte(name string) *pcte {
	for i := len(p.ctes) - 1; i >= 0; i-- {
		if p.ctes[i].name == name {
			return p.ctes[i]
		}
	}
	return nil
}

func itoa(i int) string { return strconv.Itoa(i) }
