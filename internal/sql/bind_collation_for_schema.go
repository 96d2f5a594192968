// How COLLATION FOR names a collation of a schema off the search path.
package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
)

// collationForName is the name COLLATION FOR (e), bound from n over s,
// gives the collation name it derived: a collation CREATE COLLATION
// made, found by the explicit COLLATE in n, by a table column of e that
// has it or by the ID its strings carry, is qualified by its schema when the search path does not
// find it by its name alone, as PostgreSQL's generate_collation_name
// does; any other name is quoted alone.
func (b *binder) collationForName(s *scope, n *pg_query.Node, e expr.Expr, name string, id uint8) string {
	var uc *UserCollation
	if cc := explicitCollateClause(n); cc != nil {
		var names []string
		for _, x := range cc.Collname {
			names = append(names, x.GetString_().GetSval())
		}
		uc = b.userCollationOf(names)
	} else if id != 0 {
		if uc = b.columnUserCollation(s, e, id); uc == nil {
			// Through a view, a subquery, a materialized view, an
			// aggregate or a window function.
			uc = b.userCollationByID(id)
		}
	}
	if uc == nil || uc.Name != name {
		return quoteIdent(name)
	}
	if v := b.userCollationOf([]string{uc.Name}); v != nil && v.OID == uc.OID {
		return quoteIdent(uc.Name)
	}
	return quoteIdent(uc.Schema) + "." + quoteIdent(uc.Name)
}

// columnUserCollation is the user collation of ID id that a table column
// read in e, over s, declares; nil for none.
func (b *binder) columnUserCollation(s *scope, e expr.Expr, id uint8) *UserCollation {
	if c, ok := e.(*expr.Col); ok && s != nil && c.Idx >= 0 && c.Idx < len(s.cols) && s.cols[c.Idx].origin != "" {
		sc := &s.cols[c.Idx]
		if rel, ok := b.cat.Relation(sc.origin); ok && rel.Def != nil && sc.originCol >= 0 && sc.originCol < len(rel.Def.Cols) {
			if uc := rel.Def.Cols[sc.originCol].UserColl; uc != nil && uc.ID == id {
				return uc
			}
		}
		return nil
	}
	for _, k := range expr.Children(e) {
		if uc := b.columnUserCollation(s, k, id); uc != nil {
			return uc
		}
	}
	return nil
}
