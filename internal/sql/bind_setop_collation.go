package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// setOpCollations checks the collations of a set operation's columns as
// PostgreSQL's transformSetOperationTree does: the branches' columns'
// collations merge as an operator's operands' do, and two different ICU
// collations of the same strength conflict (42P21, at the right
// branch's column), but for UNION ALL, which needs no comparison and
// leaves the column without a collation.
func (b *binder) setOpCollations(sel *pg_query.SelectStmt, l, r plan.Node) error {
	if sel.Op == pg_query.SetOperation_SETOP_UNION && sel.All {
		return nil
	}
	lc, rc := planCollationsBy(l, b.scanBytewise), planCollationsBy(r, b.scanBytewise)
	for i := range min(len(lc), len(rc)) {
		a, c := lc[i], rc[i]
		if !a.named() || !c.named() || a.id == c.id && a.name == c.name || a.strength != c.strength {
			continue
		}
		if a.strength == collExplicit {
			err := pgerr.New("42P21", "collation mismatch between explicit collations \"%s\" and \"%s\"", a.name, c.name)
			return setOpTypeError(b.stmt.SQL, err, sel.Rarg, i)
		}
		err := pgerr.New("42P21", "collation mismatch between implicit collations \"%s\" and \"%s\"", a.name, c.name).
			WithHint("You can choose the collation by applying the COLLATE clause to one or both expressions.")
		return setOpTypeError(b.stmt.SQL, err, sel.Rarg, i)
	}
	return nil
}

// scanBytewise names the byte-wise collation ("C", "POSIX") declared by
// the column i of the table n scans (of a materialized view, derived by
// its query); "" for another column.
func (b *binder) scanBytewise(n *plan.Scan, i int) string {
	// The relations this statement scanned, also inside the views it
	// reads: looking one up in the catalog again would count it as one
	// the statement names (its privileges, a view's dependencies).
	rel, ok := b.rowCounts()[n.Relation]
	if ok && rel.Kind == KindMatView && i < len(rel.ColCollations) && rel.ColCollations[i].ID == 0 {
		return rel.ColCollations[i].Name // from its query
	}
	if !ok || rel.Def == nil || i >= len(rel.Def.Cols) || rel.Def.Cols[i].Name != n.Cols[i].Name {
		return ""
	}
	return rel.Def.Cols[i].CollationName()
}

// setOpCollate gives each column of p whose derived collation (the
// branches' merged, coll) is an ICU one that collation, so that every
// row of the set operation's column orders under it: a branch of the
// default collation takes the other's, as PostgreSQL's common collation
// does.
func setOpCollate(p plan.Node, coll []collState) plan.Node {
	cols := p.Columns()
	var exprs []expr.Expr
	for i, c := range cols {
		var e expr.Expr = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
		if i < len(coll) && coll[i].id != 0 && coll[i].strength != collConflict && isString(c.Type.Kind) {
			if exprs == nil {
				exprs = make([]expr.Expr, 0, len(cols))
				for j := range i {
					exprs = append(exprs, &expr.Col{Idx: j, T: cols[j].Type, Name: cols[j].Name})
				}
			}
			e = &expr.Collate{E: e, ID: coll[i].id, Name: coll[i].name, Implicit: true, Derived: true}
		}
		if exprs != nil {
			exprs = append(exprs, e)
		}
	}
	if exprs == nil {
		return p
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: cols}
}

// mergedCollations merges the collations the branches l and r derive.
func mergedCollations(l, r plan.Node) []collState {
	lc, rc := planCollations(l), planCollations(r)
	out := make([]collState, min(len(lc), len(rc)))
	for i := range out {
		out[i] = mergeCollation(lc[i], rc[i])
	}
	return out
}
