package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// RelSetTablespace is ALTER INDEX | MATERIALIZED VIEW name SET TABLESPACE
// pg_default (checkTablespaces refused another): the relation stays
// where every relation is, so the engine checks its name and kind only.
type RelSetTablespace struct {
	Kind      string // "index" or "materialized view"
	Name      string
	MissingOk bool
	Tag       string
}

func (*RelSetTablespace) bound() {}

// bindRelSetTablespace binds an ALTER INDEX or ALTER MATERIALIZED VIEW
// whose subcommands are all SET TABLESPACE; ok is false for any other.
func bindRelSetTablespace(as *pg_query.AlterTableStmt) (_ Bound, ok bool) {
	kind := map[pg_query.ObjectType]string{pg_query.ObjectType_OBJECT_INDEX: "index",
		pg_query.ObjectType_OBJECT_MATVIEW: "materialized view"}[as.Objtype]
	if kind == "" || len(as.Cmds) == 0 || as.Relation == nil {
		return nil, false
	}
	for _, n := range as.Cmds {
		if c := n.GetAlterTableCmd(); c == nil || c.Subtype != pg_query.AlterTableType_AT_SetTableSpace {
			return nil, false
		}
	}
	tag := map[string]string{"index": "ALTER INDEX", "materialized view": "ALTER MATERIALIZED VIEW"}[kind]
	return &RelSetTablespace{Kind: kind, Name: as.Relation.Relname, MissingOk: as.MissingOk, Tag: tag}, true
}
