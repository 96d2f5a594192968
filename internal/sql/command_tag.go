package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// CommandTag is the command tag PostgreSQL gives a statement that changes
// the catalog, as its messages name it ("cannot execute CREATE TABLE in
// a read-only transaction"); "" for one it does not name.
func CommandTag(n *pg_query.Node) string {
	if tag := commandTag(n); tag != "" {
		return tag
	}
	switch {
	case n.GetCreateRoleStmt() != nil:
		return "CREATE ROLE"
	case n.GetAlterRoleStmt() != nil, n.GetAlterRoleSetStmt() != nil:
		return "ALTER ROLE"
	case n.GetDropRoleStmt() != nil:
		return "DROP ROLE"
	case n.GetGrantRoleStmt() != nil:
		if n.GetGrantRoleStmt().IsGrant {
			return "GRANT ROLE"
		}
		return "REVOKE ROLE"
	case n.GetCreateEventTrigStmt() != nil:
		return "CREATE EVENT TRIGGER"
	case n.GetAlterEventTrigStmt() != nil:
		return "ALTER EVENT TRIGGER"
	case n.GetTruncateStmt() != nil:
		return "TRUNCATE TABLE"
	case n.GetReassignOwnedStmt() != nil:
		return "REASSIGN OWNED"
	case n.GetAlterDatabaseSetStmt() != nil, n.GetAlterDatabaseStmt() != nil:
		return "ALTER DATABASE"
	case n.GetCopyStmt() != nil:
		return "COPY FROM"
	}
	return ""
}
