package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// columnCollation checks a table column's COLLATE clause (nil: none): its
// type must be collatable, and the collation one that compares byte by
// byte, as the column's strings do. An ICU collation on a column is
// refused rather than ignored: the column's comparisons would not follow
// it; COLLATE in the query applies one.
func (b *binder) columnCollation(cc *pg_query.CollateClause, t value.Type) error {
	if cc == nil {
		return nil
	}
	if !isString(t.Kind) && !(t.Kind.IsArray() && isString(t.Kind.Elem())) {
		return b.stmt.errf(cc.Location, pgerr.DatatypeMismatch, "collations are not supported by type %s", t)
	}
	var names []string
	for _, n := range cc.Collname {
		names = append(names, n.GetString_().Sval)
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	if c := icuCollation(names); c != nil {
		return b.refuse(cc.Location, "a column's collation %s is not supported", expr.QuoteIdent(c.Name)).
			WithHint("write COLLATE %s where the column is compared or sorted", expr.QuoteIdent(c.Name))
	}
	return b.checkCollation(names, cc.Location)
}
