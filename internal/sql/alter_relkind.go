package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The ALTER TABLE actions a materialized view refuses, with PostgreSQL
// 15's error (ATWrongRelkindError): each action is checked against the
// relation's kind before anything else, and the first that does not
// apply names itself as alter_table_type_to_string spells it.

// matViewAlterActions are the actions PostgreSQL 15 takes on a
// materialized view (the others are 42809).
var matViewAlterActions = map[pg_query.AlterTableType]bool{
	pg_query.AlterTableType_AT_SetStatistics:     true,
	pg_query.AlterTableType_AT_SetOptions:        true,
	pg_query.AlterTableType_AT_ResetOptions:      true,
	pg_query.AlterTableType_AT_SetStorage:        true,
	pg_query.AlterTableType_AT_SetCompression:    true,
	pg_query.AlterTableType_AT_ChangeOwner:       true,
	pg_query.AlterTableType_AT_ClusterOn:         true,
	pg_query.AlterTableType_AT_DropCluster:       true,
	pg_query.AlterTableType_AT_SetAccessMethod:   true,
	pg_query.AlterTableType_AT_SetTableSpace:     true,
	pg_query.AlterTableType_AT_SetRelOptions:     true,
	pg_query.AlterTableType_AT_ResetRelOptions:   true,
	pg_query.AlterTableType_AT_ReplaceRelOptions: true,
	pg_query.AlterTableType_AT_ReplicaIdentity:   true,
	// PostgreSQL 17's, a syntax error in 15: refused elsewhere.
	pg_query.AlterTableType_AT_SetExpression: true,
}

// alterActionNames are PostgreSQL 15's names of the actions where they
// are not the words of the parser's own name.
var alterActionNames = map[pg_query.AlterTableType]string{
	pg_query.AlterTableType_AT_ColumnDefault:             "ALTER COLUMN ... SET DEFAULT",
	pg_query.AlterTableType_AT_DropNotNull:               "ALTER COLUMN ... DROP NOT NULL",
	pg_query.AlterTableType_AT_SetNotNull:                "ALTER COLUMN ... SET NOT NULL",
	pg_query.AlterTableType_AT_DropExpression:            "ALTER COLUMN ... DROP EXPRESSION",
	pg_query.AlterTableType_AT_AddIndexConstraint:        "ADD CONSTRAINT",
	pg_query.AlterTableType_AT_AlterColumnType:           "ALTER COLUMN ... SET DATA TYPE",
	pg_query.AlterTableType_AT_AlterColumnGenericOptions: "ALTER COLUMN ... OPTIONS",
	pg_query.AlterTableType_AT_EnableTrig:                "ENABLE TRIGGER",
	pg_query.AlterTableType_AT_EnableAlwaysTrig:          "ENABLE ALWAYS TRIGGER",
	pg_query.AlterTableType_AT_EnableReplicaTrig:         "ENABLE REPLICA TRIGGER",
	pg_query.AlterTableType_AT_DisableTrig:               "DISABLE TRIGGER",
	pg_query.AlterTableType_AT_EnableTrigAll:             "ENABLE TRIGGER ALL",
	pg_query.AlterTableType_AT_DisableTrigAll:            "DISABLE TRIGGER ALL",
	pg_query.AlterTableType_AT_EnableTrigUser:            "ENABLE TRIGGER USER",
	pg_query.AlterTableType_AT_DisableTrigUser:           "DISABLE TRIGGER USER",
	pg_query.AlterTableType_AT_AddInherit:                "INHERIT",
	pg_query.AlterTableType_AT_DropInherit:               "NO INHERIT",
	pg_query.AlterTableType_AT_AddOf:                     "OF",
	pg_query.AlterTableType_AT_DropOf:                    "NOT OF",
	pg_query.AlterTableType_AT_EnableRowSecurity:         "ENABLE ROW SECURITY",
	pg_query.AlterTableType_AT_DisableRowSecurity:        "DISABLE ROW SECURITY",
	pg_query.AlterTableType_AT_ForceRowSecurity:          "FORCE ROW SECURITY",
	pg_query.AlterTableType_AT_NoForceRowSecurity:        "NO FORCE ROW SECURITY",
	pg_query.AlterTableType_AT_GenericOptions:            "OPTIONS",
	pg_query.AlterTableType_AT_DetachPartitionFinalize:   "DETACH PARTITION ... FINALIZE",
	pg_query.AlterTableType_AT_AddIdentity:               "ALTER COLUMN ... ADD IDENTITY",
	pg_query.AlterTableType_AT_SetIdentity:               "ALTER COLUMN ... SET",
	pg_query.AlterTableType_AT_DropIdentity:              "ALTER COLUMN ... DROP IDENTITY",
}

// alterActionName is PostgreSQL 15's name of an ALTER TABLE action.
func alterActionName(t pg_query.AlterTableType) string {
	if s, ok := alterActionNames[t]; ok {
		return s
	}
	// ADD COLUMN, DROP CONSTRAINT, SET LOGGED, ENABLE RULE, …
	return strings.ReplaceAll(alterCmdName(t), "ALTER COLUMN … ", "ALTER COLUMN ... ")
}

// alterRelKindError is PostgreSQL's 42809 for the first of cmds that
// does not apply to rel, a materialized view named name; nil for another
// relation or when each applies.
func alterRelKindError(rel *Relation, name string, cmds []*pg_query.Node) error {
	if rel.Kind != KindMatView {
		return nil
	}
	for _, n := range cmds {
		c := n.GetAlterTableCmd()
		if c == nil || matViewAlterActions[c.Subtype] {
			continue
		}
		return pgerr.New(pgerr.WrongObjectType, "ALTER action %s cannot be performed on relation %q", alterActionName(c.Subtype), name).
			WithDetail("This operation is not supported for materialized views.")
	}
	return nil
}
