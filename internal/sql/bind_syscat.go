package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// systemRelation resolves rv when it names a catalog relation. The schemas of the system catalogs: a
// relation named in one of them, or an unqualified name the schema
// pg_catalog has (it comes first in PostgreSQL's search path), is a
// catalog relation.
func (b *binder) systemRelation(rv *pg_query.RangeVar) (*Relation, bool) {
	if _, ok := b.cat.(SystemCatalog); !ok {
		return nil, false
	}
	switch rv.Schemaname {
	case "pg_catalog", "information_schema":
		rel, _ := b.cat.Relation(rv.Schemaname + "." + rv.Relname)
		return rel, true // nil when the schema has no such relation: bindSystemRelation's error
	case "":
		if _, cte := b.lookupCTE(rv.Relname); cte {
			return nil, false
		}
		rel, ok := b.cat.Relation("pg_catalog." + rv.Relname)
		return rel, ok
	}
	return nil, false
}

// bindSystemRelation binds a read of a catalog relation: computed when
// the statement runs, so a materialized view, whose state would go stale
// as soon as the catalog changes, cannot read one.
func (b *binder) bindSystemRelation(rv *pg_query.RangeVar, rel *Relation) (plan.Node, *scope, error) {
	if rel == nil {
		return nil, nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", rv.Schemaname, rv.Relname)
	}
	if b.forView {
		return nil, nil, b.refuse(rv.Location, "a materialized view cannot read the system catalog %s", rel.Name).
			WithHint("query the catalog directly, or through a plain view")
	}
	alias := rv.Relname
	var colAliases []*pg_query.Node
	if rv.Alias != nil {
		alias, colAliases = rv.Alias.Aliasname, rv.Alias.Colnames
	}
	var in plan.Node = &plan.Scan{Relation: rel.Name, Cols: rel.Cols}
	if rel.Name == "pg_catalog.pg_settings" && b.stmtClock != nil {
		in = b.sessionSettings(rel)
	}
	withOID, sys := b.catalogTableOID(rel, in)
	if sys {
		in = withOID
	}
	p, err := b.renameColumns(in, colAliases, alias, rv.Location)
	if err != nil {
		return nil, nil, err
	}
	sc := rowScope(alias, relRowType(rel), p.Columns())
	for i := range rel.Cols {
		sc.cols[i].src = Origin{Rel: rel.Name, Col: i}
	}
	if sys {
		b.markSystemColumns(sc, len(rel.Cols), "")
		sc.cols[len(rel.Cols)].src = Origin{Rel: rel.Name, Col: systemScopeCol("", "", plan.RowSystemColumns).originCol}
	}
	return p, sc, nil
}

// sessionSettings reads pg_settings from the settings of the session
// that runs the statement, which its clock carries; as PostgreSQL's
// pg_settings, a view over pg_show_all_settings().
func (b *binder) sessionSettings(rel *Relation) plan.Node {
	clock := b.stmtClock
	types := make([]value.Type, len(rel.Cols))
	names := make([]string, len(rel.Cols))
	for i, c := range rel.Cols {
		types[i], names[i] = c.Type, c.Name
	}
	srf := &expr.SRF{Name: "pg_show_all_settings", Cols: types, Names: names,
		Gen: func(_ []value.Value, emit func(value.Row) error) error {
			st, ok := clock.Settings.(expr.SettingsTable)
			if !ok {
				return nil
			}
			for _, r := range st.SettingRows() {
				if err := emit(r); err != nil {
					return err
				}
			}
			return nil
		}}
	return &plan.TableFunc{Funcs: []*expr.SRF{srf}, Cols: rel.Cols}
}
