// A VALUES list of a view's query as PostgreSQL's analysis types it and
// ruleutils prints it.
package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// valuesQuery types a bare VALUES list: each column the common type of
// its rows, named column1, column2, …; the rows see env's levels.
func (a *viewAnalyzer) valuesQuery(sel *pg_query.SelectStmt, env scopeEnv) (*pquery, error) {
	if sel.WithClause != nil || len(sel.SortClause) > 0 || sel.LimitCount != nil || sel.LimitOffset != nil ||
		len(sel.FromClause) > 0 || len(sel.TargetList) > 0 {
		return nil, errNoDeparse
	}
	q := &pquery{}
	p := &ptyper{rels: []*prel{}, outer: env.cols, an: a, names: copyNames(env.names), ctes: env.ctes}
	q.p = p
	for _, row := range sel.ValuesLists {
		var xs []*pexpr
		for _, n := range row.GetList().GetItems() {
			x, err := p.build(n)
			if err != nil {
				return nil, err
			}
			xs = append(xs, x)
		}
		if len(q.values) > 0 && len(xs) != len(q.values[0]) || len(xs) == 0 {
			return nil, errNoDeparse
		}
		q.values = append(q.values, xs)
	}
	for i := range q.values[0] {
		col := make([]*pexpr, len(q.values))
		for j, row := range q.values {
			col[j] = row[i]
		}
		t, err := commonType(col)
		if err != nil {
			return nil, err
		}
		for _, row := range q.values {
			if row[i], err = p.coerce(row[i], t, false); err != nil {
				return nil, err
			}
		}
		q.targets = append(q.targets, vtarget{x: &pexpr{k: pCol, t: t}, name: "column" + itoa(i+1)})
	}
	return q, nil
}

// values is get_values_def: the rows, their columns apart by a comma
// alone.
func (pp *pprinter) values(q *pquery) {
	b := &pp.b
	pp.indent += 8
	b.WriteString(" VALUES ")
	for i, row := range q.values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, x := range row {
			if j > 0 {
				b.WriteByte(',')
			}
			pp.expr(x, false, nil)
		}
		b.WriteByte(')')
	}
}
