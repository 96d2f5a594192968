package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// domainDefaultTexts are a domain's default as pg_type shows it, in
// PostgreSQL's deparsed form, as a default of a column of the domain's
// base type prints (DEFAULT 7 + 2 is (7 + 2), 'ab' of a varchar domain
// 'ab'::character varying): typdefault from the text the default was
// set with (DomainDef.TypDefault, which a later rename of a function it
// calls leaves as it was), typdefaultbin, which pg_get_expr prints, from
// the default as it is now. Both are "" for none, and for a NULL default,
// which PostgreSQL does not keep.
func (e *Engine) domainDefaultTexts(def *expr.DomainDef) (typdefault, bin string) {
	if def.DefaultSQL == "" {
		return "", ""
	}
	x := newExprTexts(nil, e)
	c := sql.ColumnDef{Type: def.Base}
	return x.columnDefault(c, def.TypDefault()), x.columnDefault(c, def.DefaultSQL)
}
