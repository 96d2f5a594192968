package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// fromColumns returns a function that reports whether a name is a column
// of sel's FROM items, as far as cat and the statement tell without
// binding: a table's or view's columns (renamed by the alias's column
// list), a subquery's output names, a function's column. PostgreSQL
// resolves a GROUP BY name to such a column before the select list's
// output names. A name of a WITH query of the statement (ctes) reads its
// output names; one that names several reads none.
func fromColumns(cat Catalog, ctes map[string]*pg_query.CommonTableExpr, sel *pg_query.SelectStmt) func(string) bool {
	names := map[string]bool{}
	aliased := func(cols []string, alias *pg_query.Alias) {
		for _, c := range renamed(cols, alias) {
			names[c] = true
		}
	}
	var item func(n *pg_query.Node)
	item = func(n *pg_query.Node) {
		switch {
		case n == nil:
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			if c, ok := ctes[rv.Relname]; ok && rv.Schemaname == "" {
				if c != nil {
					cols := renamed(targetNames(c.Ctequery.GetSelectStmt()), &pg_query.Alias{Colnames: c.Aliascolnames})
					aliased(cols, rv.Alias)
				}
				return
			}
			if cat == nil {
				return
			}
			rel, ok := cat.Relation(rv.Relname)
			if !ok {
				return
			}
			var cols []string
			for _, c := range rel.Cols {
				cols = append(cols, c.Name)
			}
			aliased(cols, rv.Alias)
		case n.GetRangeSubselect() != nil:
			rs := n.GetRangeSubselect()
			aliased(targetNames(rs.Subquery.GetSelectStmt()), rs.Alias)
		case n.GetRangeFunction() != nil:
			rf := n.GetRangeFunction()
			var cols []string
			if !rf.IsRowsfrom && len(rf.Functions) == 1 && rf.Alias == nil {
				if l := rf.Functions[0].GetList(); l != nil && len(l.Items) > 0 {
					if f := l.Items[0].GetFuncCall(); f != nil {
						cols = append(cols, opName(f.Funcname))
					}
				}
			}
			if rf.Alias != nil && len(rf.Alias.Colnames) == 0 {
				cols = append(cols, rf.Alias.Aliasname)
			}
			aliased(cols, rf.Alias)
		case n.GetJoinExpr() != nil:
			item(n.GetJoinExpr().Larg)
			item(n.GetJoinExpr().Rarg)
		}
	}
	for _, n := range sel.FromClause {
		item(n)
	}
	return func(name string) bool { return names[name] }
}

// renamed returns cols renamed by the column list of alias (which may be
// nil).
func renamed(cols []string, alias *pg_query.Alias) []string {
	if alias == nil {
		return cols
	}
	cols = append([]string(nil), cols...)
	for i, c := range alias.Colnames {
		if s := c.GetString_(); s != nil && i < len(cols) {
			cols[i] = s.Sval
		} else if s != nil {
			cols = append(cols, s.Sval)
		}
	}
	return cols
}

// targetNames returns the output names of a query's select list (of its
// first branch for a set operation).
func targetNames(s *pg_query.SelectStmt) []string {
	for s != nil && s.Larg != nil {
		s = s.Larg
	}
	if s == nil {
		return nil
	}
	var cols []string
	for _, t := range s.TargetList {
		if rt := t.GetResTarget(); rt != nil {
			name := rt.Name
			if name == "" && rt.Val != nil {
				name = figureName(rt.Val)
			}
			cols = append(cols, name)
		}
	}
	return cols
}

// withNames returns the WITH queries anywhere under n by name; a name
// given to several maps to nil.
func withNames(n *pg_query.Node) map[string]*pg_query.CommonTableExpr {
	out := map[string]*pg_query.CommonTableExpr{}
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		if c := n.GetCommonTableExpr(); c != nil {
			if _, dup := out[c.Ctename]; dup {
				out[c.Ctename] = nil
			} else {
				out[c.Ctename] = c
			}
		}
	})
	return out
}
