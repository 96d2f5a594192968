package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// RelColumns gives a relation's columns and their types by its name, ok
// false for a relation the caller does not know.
type RelColumns func(name string) (cols []string, types []value.Type, ok bool)

// ViewDefPG is src, a view's query as kept, as PostgreSQL 15's
// pg_get_viewdef prints its stored query: columns qualified by their
// relation, every output named, one per line, clauses on lines of their
// own. names are the view's column names. ok is false for a query this
// printer does not know (set operations, WITH, subqueries, windows, …):
// the caller keeps src.
func ViewDefPG(src string, names []string, rels RelColumns, pretty bool) (string, bool) {
	tree, err := pg_query.Parse(src)
	if err != nil || len(tree.Stmts) != 1 {
		return "", false
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil {
		return "", false
	}
	v := &viewPrinter{p: &ptyper{aggs: true, rels: []*prel{}}, rels: rels, pp: &pprinter{pretty: pretty}}
	if err := v.query(sel, names); err != nil {
		return "", false
	}
	return v.pp.b.String() + ";", true
}

// viewPrinter prints one SELECT; its state is the typer's range table
// and the text so far.
type viewPrinter struct {
	p    *ptyper
	rels RelColumns
	pp   *pprinter
}

func (v *viewPrinter) query(sel *pg_query.SelectStmt, names []string) error {
	if sel.Op != pg_query.SetOperation_SETOP_NONE || sel.WithClause != nil || sel.IntoClause != nil || len(sel.ValuesLists) > 0 ||
		len(sel.WindowClause) > 0 || len(sel.LockingClause) > 0 || len(sel.FromClause) == 0 ||
		sel.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES || sel.GroupDistinct {
		return errNoDeparse
	}
	distinct := false
	if len(sel.DistinctClause) > 0 {
		if len(sel.DistinctClause) != 1 || sel.DistinctClause[0].Node != nil {
			return errNoDeparse // DISTINCT ON
		}
		distinct = true
	}
	// FROM first: it makes the names the other clauses read.
	from := &pprinter{pretty: v.pp.pretty, indent: 8}
	for i, item := range sel.FromClause {
		if i == 0 {
			from.keywordPlus(" FROM ", -8, 8, 2)
		} else {
			from.b.WriteString(", ")
			from.keywordPlus("", -8, 8, 4)
		}
		if err := v.fromItem(from, item); err != nil {
			return err
		}
	}
	targets, err := v.targets(sel.TargetList, names)
	if err != nil {
		return err
	}
	pp := v.pp
	pp.indent = 8
	pp.b.WriteString(" SELECT")
	if distinct {
		pp.b.WriteString(" DISTINCT")
	}
	sep := " "
	for i, t := range targets {
		pp.b.WriteString(sep)
		sep = ", "
		field := v.target(t)
		if strings.HasPrefix(field, "\n") {
			pp.trimSpaces()
		} else if i > 0 {
			pp.keywordPlus("", -8, 8, 4)
		}
		pp.b.WriteString(field)
	}
	pp.b.WriteString(from.b.String())
	if sel.WhereClause != nil {
		x, err := v.p.build(sel.WhereClause)
		if err != nil {
			return err
		}
		if x, err = v.p.coerce(x, value.BoolType, false); err != nil {
			return err
		}
		pp.keywordPlus(" WHERE ", -8, 8, 1)
		pp.expr(x, false, nil)
	}
	if len(sel.GroupClause) > 0 {
		pp.keywordPlus(" GROUP BY ", -8, 8, 1)
		for i, g := range sel.GroupClause {
			if i > 0 {
				pp.b.WriteString(", ")
			}
			x, err := v.sortGroupExpr(g, targets)
			if err != nil {
				return err
			}
			v.sortGroup(x)
		}
	}
	if sel.HavingClause != nil {
		x, err := v.p.build(sel.HavingClause)
		if err != nil {
			return err
		}
		if x, err = v.p.coerce(x, value.BoolType, false); err != nil {
			return err
		}
		pp.keywordPlus(" HAVING ", -8, 8, 0)
		pp.expr(x, false, nil)
	}
	if len(sel.SortClause) > 0 {
		pp.keywordPlus(" ORDER BY ", -8, 8, 1)
		for i, s := range sel.SortClause {
			sb := s.GetSortBy()
			if sb == nil || sb.UseOp != nil {
				return errNoDeparse
			}
			if i > 0 {
				pp.b.WriteString(", ")
			}
			x, err := v.sortGroupExpr(sb.Node, targets)
			if err != nil {
				return err
			}
			v.sortGroup(x)
			desc := sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC
			if desc {
				pp.b.WriteString(" DESC")
			}
			switch sb.SortbyNulls {
			case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
				if !desc {
					pp.b.WriteString(" NULLS FIRST")
				}
			case pg_query.SortByNulls_SORTBY_NULLS_LAST:
				if desc {
					pp.b.WriteString(" NULLS LAST")
				}
			}
		}
	}
	for _, c := range []struct {
		kw string
		n  *pg_query.Node
	}{{" OFFSET ", sel.LimitOffset}, {" LIMIT ", sel.LimitCount}} {
		if c.n == nil {
			continue
		}
		x, err := v.p.build(c.n)
		if err != nil {
			return err
		}
		if x.k == pConst && x.null && c.kw == " LIMIT " {
			pp.keywordPlus(" LIMIT ALL", -8, 8, 0)
			continue
		}
		if x.t.Kind != value.Int4 && x.t.Kind != value.Int8 {
			return errNoDeparse
		}
		pp.keywordPlus(c.kw, -8, 8, 0)
		pp.expr(x, false, nil)
	}
	return nil
}

// vtarget is one output column: its expression and name.
type vtarget struct {
	x    *pexpr
	name string
}

func (v *viewPrinter) targets(list []*pg_query.Node, names []string) ([]vtarget, error) {
	var out []vtarget
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, errNoDeparse
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			if len(cr.Fields) > 2 {
				return nil, errNoDeparse
			}
			for _, r := range v.p.rels {
				if len(cr.Fields) == 2 && cr.Fields[0].GetString_().GetSval() != r.ref {
					continue
				}
				for i, c := range r.cols {
					out = append(out, vtarget{x: &pexpr{k: pCol, lit: r.ref, name: c, t: r.types[i]}, name: c})
				}
			}
			continue
		}
		x, err := v.p.build(rt.Val)
		if err != nil {
			return nil, err
		}
		if x.t.Kind == value.Unknown {
			if x, err = v.p.coerce(x, value.TextType, false); err != nil {
				return nil, err
			}
		}
		name := rt.Name
		if name == "" {
			name = figureColname(rt.Val)
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

// target prints one output column as get_target_list does.
func (v *viewPrinter) target(t vtarget) string {
	pp := &pprinter{pretty: v.pp.pretty, indent: v.pp.indent}
	pp.expr(t.x, true, nil)
	if t.x.k != pCol || t.x.name != t.name {
		pp.b.WriteString(" AS " + expr.QuoteIdent(t.name))
	}
	return pp.b.String()
}

// sortGroupExpr is a GROUP BY or ORDER BY item: an output column's
// expression when it names one by position or by name.
func (v *viewPrinter) sortGroupExpr(n *pg_query.Node, targets []vtarget) (*pexpr, error) {
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		i := int(c.GetIval().Ival)
		if i < 1 || i > len(targets) {
			return nil, errNoDeparse
		}
		return targets[i-1].x, nil
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 {
		if x, err := v.p.build(n); err == nil {
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
	return v.p.build(n)
}

// sortGroup is get_rule_sortgroupclause: a column bare, a constant by its
// position (not deparsed), other expressions in parentheses when pretty
// or function-like.
func (v *viewPrinter) sortGroup(x *pexpr) {
	pp := v.pp
	if x.k == pCol {
		pp.expr(x, true, nil)
		return
	}
	paren := pp.pretty || x.k == pFunc || x.k == pCast && !x.relabel
	if paren {
		pp.b.WriteByte('(')
	}
	pp.expr(x, true, nil)
	if paren {
		pp.b.WriteByte(')')
	}
}

// fromItem prints one FROM item and adds its relations to the typer's.
func (v *viewPrinter) fromItem(pp *pprinter, n *pg_query.Node) error {
	if rv := n.GetRangeVar(); rv != nil {
		if rv.Catalogname != "" || rv.Schemaname != "" && rv.Schemaname != "public" || !rv.Inh {
			return errNoDeparse
		}
		cols, types, ok := v.rels(rv.Relname)
		if !ok {
			return errNoDeparse
		}
		r := &prel{ref: rv.Relname, cols: cols, types: types}
		pp.b.WriteString(expr.QuoteIdent(rv.Relname))
		if rv.Alias != nil {
			if len(rv.Alias.Colnames) > 0 {
				return errNoDeparse
			}
			r.ref = rv.Alias.Aliasname
			pp.b.WriteString(" " + expr.QuoteIdent(r.ref))
		}
		for _, o := range v.p.rels {
			if o.ref == r.ref {
				return errNoDeparse
			}
		}
		v.p.rels = append(v.p.rels, r)
		return nil
	}
	j := n.GetJoinExpr()
	if j == nil || j.Alias != nil || j.IsNatural || len(j.UsingClause) > 0 || j.Rarg.GetJoinExpr() != nil {
		return errNoDeparse
	}
	if !pp.pretty {
		pp.b.WriteByte('(')
	}
	if err := v.fromItem(pp, j.Larg); err != nil {
		return err
	}
	kw := map[pg_query.JoinType]string{pg_query.JoinType_JOIN_INNER: " JOIN ", pg_query.JoinType_JOIN_LEFT: " LEFT JOIN ",
		pg_query.JoinType_JOIN_RIGHT: " RIGHT JOIN ", pg_query.JoinType_JOIN_FULL: " FULL JOIN "}[j.Jointype]
	if kw == "" {
		return errNoDeparse
	}
	if j.Quals == nil && j.Jointype == pg_query.JoinType_JOIN_INNER {
		kw = " CROSS JOIN "
	}
	pp.keywordPlus(kw, -8, 8, 4)
	if err := v.fromItem(pp, j.Rarg); err != nil {
		return err
	}
	if j.Quals != nil {
		x, err := v.p.build(j.Quals)
		if err != nil {
			return err
		}
		if x, err = v.p.coerce(x, value.BoolType, false); err != nil {
			return err
		}
		pp.b.WriteString(" ON ")
		pp.open()
		pp.expr(x, false, nil)
		pp.close()
	} else if j.Jointype != pg_query.JoinType_JOIN_INNER {
		pp.b.WriteString(" ON TRUE")
	}
	if !pp.pretty {
		pp.b.WriteByte(')')
	}
	return nil
}

// figureColname is FigureColname: the name PostgreSQL gives an output
// column written without AS.
func figureColname(n *pg_query.Node) string {
	switch {
	case n.GetColumnRef() != nil:
		f := n.GetColumnRef().Fields
		if s := f[len(f)-1].GetString_(); s != nil {
			return s.Sval
		}
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall().Funcname
		return f[len(f)-1].GetString_().GetSval()
	case n.GetTypeCast() != nil:
		if name := figureColname(n.GetTypeCast().Arg); name != "?column?" {
			return name
		}
		names := n.GetTypeCast().TypeName.Names
		return names[len(names)-1].GetString_().GetSval()
	case n.GetCaseExpr() != nil:
		return "case"
	case n.GetCoalesceExpr() != nil:
		return "coalesce"
	case n.GetMinMaxExpr() != nil:
		if n.GetMinMaxExpr().Op == pg_query.MinMaxOp_IS_LEAST {
			return "least"
		}
		return "greatest"
	case n.GetAArrayExpr() != nil:
		return "array"
	case n.GetSqlvalueFunction() != nil:
		return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(n.GetSqlvalueFunction().Op.String(), "SVFOP_"), "_N"))
	case n.GetAExpr() != nil && n.GetAExpr().Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF:
		return "nullif"
	}
	return "?column?"
}
