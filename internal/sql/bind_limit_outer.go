package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
)

// limitReadsOuter reports whether a view subquery's LIMIT or OFFSET reads
// the enclosing query's columns (LIMIT t.n). Such a limit is no constant
// of the view: it stays a Limit, which decorrelation turns into a
// row_number over the domain of the values it reads, kept when within
// them. A limit that fails to bind here fails again, with its own error,
// where constant limits are evaluated.
func (b *binder) limitReadsOuter(sel *pg_query.SelectStmt, sc *scope) bool {
	if len(b.outers) == 0 {
		return false
	}
	for _, x := range []struct {
		n    *pg_query.Node
		what string
	}{{sel.LimitCount, "LIMIT"}, {sel.LimitOffset, "OFFSET"}} {
		if x.n == nil || hasSubLink(x.n) {
			continue
		}
		if c := x.n.GetAConst(); c != nil {
			continue
		}
		e, err := b.bindLimitExpr(&scope{}, sc, x.n, x.what, nodeLoc(x.n, -1))
		if err == nil && expr.HasOuter(e) {
			return true
		}
	}
	return false
}
