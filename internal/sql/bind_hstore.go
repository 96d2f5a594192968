package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// hstoreSubscript binds h['key'] as the hstore extension's subscript
// does: the key's value, fetchval(h, key); a slice or a second subscript
// is 0A000, as there.
func (b *binder) hstoreSubscript(s *scope, e expr.Expr, idx *pg_query.A_Indices, multi bool, loc int32) (expr.Expr, error) {
	if idx.IsSlice || multi {
		return nil, b.stmt.errf(loc, pgerr.FeatureNotSupported, "hstore allows only one subscript")
	}
	x, err := b.bindExpr(s, idx.Uidx)
	if err != nil {
		return nil, err
	}
	// As an assignment converts it: h[1] reads key '1'.
	if x, err = expr.Coerce(x, value.TextType, true); err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(idx.Uidx, loc)))
	}
	return b.callFunc(s, "fetchval", nil, []expr.Expr{e, x}, loc)
}
