// Grouping and DISTINCT keys whose implicit collations conflict.
package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
)

// groupKeyCollation refuses the GROUP BY key e, bound over sc, whose
// implicit collations conflict (GROUP BY c || e of a "C" and an ICU
// column), as PostgreSQL refuses a grouping target entry: 42P21 at the
// second collation's reference in the first select-list item that is
// the same expression, which PostgreSQL groups by, else in the key.
func (b *binder) groupKeyCollation(sel *pg_query.SelectStmt, sc *scope, e expr.Expr) error {
	err := b.sortCollationConflict(sc, e)
	if err == nil {
		return nil
	}
	key := exprKey(e)
	for _, t := range sel.TargetList {
		v := t.GetResTarget().GetVal()
		if v == nil || hasAggregate(v) || hasSubLink(v) || hasWindowCall(v) {
			continue
		}
		te, terr := b.bindExpr(sc, v)
		if terr != nil || exprKey(te) != key {
			continue
		}
		if terr = b.sortCollationConflict(sc, te); terr != nil {
			return terr
		}
	}
	return err
}

// distinctCollation refuses SELECT DISTINCT of a select list whose item
// (exprs, bound over sc) derives conflicting implicit collations: each
// is a key, 42P21 at the first such item's second collation.
func (b *binder) distinctCollation(sc *scope, exprs []expr.Expr) error {
	for _, e := range exprs {
		if err := b.sortCollationConflict(sc, e); err != nil {
			return err
		}
	}
	return nil
}
