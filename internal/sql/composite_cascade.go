package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// ALTER TYPE … ADD | DROP | ALTER | RENAME ATTRIBUTE … CASCADE alters the
// typed tables of the type as PostgreSQL does: each as by the ALTER TABLE
// of the same column commands (DROP COLUMN keeps its CASCADE, which drops
// the views over the column), which the engine binds for each table as if
// it were not typed (TypedTableSQL).

// cascadeTables records, on ac, the statement as the ALTER TABLE of a
// typed table: node is the ALTER TYPE's AlterTableStmt or RenameStmt.
func (ac *AlterComposite) cascadeTables(node *pg_query.Node) {
	ac.Cascade = true
	n := proto.Clone(node).(*pg_query.Node)
	if as := n.GetAlterTableStmt(); as != nil {
		as.Objtype = pg_query.ObjectType_OBJECT_TABLE
		for _, c := range as.Cmds {
			if cmd := c.GetAlterTableCmd(); cmd.Subtype != pg_query.AlterTableType_AT_DropColumn {
				cmd.Behavior = pg_query.DropBehavior_DROP_RESTRICT
			}
		}
	}
	if rs := n.GetRenameStmt(); rs != nil {
		rs.RenameType = pg_query.ObjectType_OBJECT_COLUMN
		rs.RelationType = pg_query.ObjectType_OBJECT_TABLE
		rs.Behavior = pg_query.DropBehavior_DROP_RESTRICT
	}
	ac.tableStmt = n
}

// TypedTableSQL is the ALTER TABLE that ALTER TYPE … CASCADE makes of its
// typed table schema.table.
func (ac *AlterComposite) TypedTableSQL(schema, table string) (string, error) {
	n := proto.Clone(ac.tableStmt).(*pg_query.Node)
	rv := &pg_query.RangeVar{Schemaname: schema, Relname: table, Inh: true, Relpersistence: "p", Location: -1}
	if as := n.GetAlterTableStmt(); as != nil {
		as.Relation = rv
	}
	if rs := n.GetRenameStmt(); rs != nil {
		rs.Relation = rv
	}
	return pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: n}}})
}
