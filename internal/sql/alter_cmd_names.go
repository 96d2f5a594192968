package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// alterCmdSQL names ALTER TABLE's subcommands as SQL writes them, for
// the refusal of one that is not supported.
var alterCmdSQL = map[pg_query.AlterTableType]string{
	pg_query.AlterTableType_AT_SetExpression:             "ALTER COLUMN … SET EXPRESSION",
	pg_query.AlterTableType_AT_DropExpression:            "ALTER COLUMN … DROP EXPRESSION",
	pg_query.AlterTableType_AT_SetStatistics:             "ALTER COLUMN … SET STATISTICS",
	pg_query.AlterTableType_AT_SetOptions:                "ALTER COLUMN … SET (…)",
	pg_query.AlterTableType_AT_ResetOptions:              "ALTER COLUMN … RESET (…)",
	pg_query.AlterTableType_AT_SetStorage:                "ALTER COLUMN … SET STORAGE",
	pg_query.AlterTableType_AT_SetCompression:            "ALTER COLUMN … SET COMPRESSION",
	pg_query.AlterTableType_AT_AddIndex:                  "ADD INDEX",
	pg_query.AlterTableType_AT_AlterConstraint:           "ALTER CONSTRAINT",
	pg_query.AlterTableType_AT_AddIndexConstraint:        "ADD CONSTRAINT … USING INDEX",
	pg_query.AlterTableType_AT_AlterColumnGenericOptions: "ALTER COLUMN … OPTIONS (…)",
	pg_query.AlterTableType_AT_ChangeOwner:               "OWNER TO",
	pg_query.AlterTableType_AT_ClusterOn:                 "CLUSTER ON",
	pg_query.AlterTableType_AT_DropCluster:               "SET WITHOUT CLUSTER",
	pg_query.AlterTableType_AT_SetLogged:                 "SET LOGGED",
	pg_query.AlterTableType_AT_SetUnLogged:               "SET UNLOGGED",
	pg_query.AlterTableType_AT_DropOids:                  "SET WITHOUT OIDS",
	pg_query.AlterTableType_AT_SetAccessMethod:           "SET ACCESS METHOD",
	pg_query.AlterTableType_AT_SetTableSpace:             "SET TABLESPACE",
	pg_query.AlterTableType_AT_SetRelOptions:             "SET (…)",
	pg_query.AlterTableType_AT_ResetRelOptions:           "RESET (…)",
	pg_query.AlterTableType_AT_ReplaceRelOptions:         "SET (…)",
	pg_query.AlterTableType_AT_AddOf:                     "OF",
	pg_query.AlterTableType_AT_DropOf:                    "NOT OF",
	pg_query.AlterTableType_AT_ReplicaIdentity:           "REPLICA IDENTITY",
	pg_query.AlterTableType_AT_GenericOptions:            "OPTIONS (…)",
	pg_query.AlterTableType_AT_AddIdentity:               "ALTER COLUMN … ADD GENERATED … AS IDENTITY",
	pg_query.AlterTableType_AT_SetIdentity:               "ALTER COLUMN … SET GENERATED",
	pg_query.AlterTableType_AT_DropIdentity:              "ALTER COLUMN … DROP IDENTITY",
	pg_query.AlterTableType_AT_EnableRowSecurity:         "ENABLE ROW LEVEL SECURITY",
	pg_query.AlterTableType_AT_DisableRowSecurity:        "DISABLE ROW LEVEL SECURITY",
	pg_query.AlterTableType_AT_ForceRowSecurity:          "FORCE ROW LEVEL SECURITY",
	pg_query.AlterTableType_AT_NoForceRowSecurity:        "NO FORCE ROW LEVEL SECURITY",
}

// alterCmdName is the SQL of an ALTER TABLE subcommand's kind: "SET
// STATISTICS" rather than the parser's SetStatistics.
func alterCmdName(t pg_query.AlterTableType) string {
	if s, ok := alterCmdSQL[t]; ok {
		return s
	}
	// The rest are few words each: AT_EnableTrigAll is "ENABLE TRIG ALL".
	name := strings.TrimPrefix(t.String(), "AT_")
	var b strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

// tableAccessMethod checks ALTER TABLE … SET ACCESS METHOD: heap, the
// one table method there is, changes nothing.
func tableAccessMethod(name string) error {
	switch name {
	case "heap":
		return nil
	case "btree", "hash", "gist", "gin", "spgist", "brin":
		return pgerr.New(pgerr.ObjectNotInPrereqState, "access method %q is not of type TABLE", name)
	}
	return pgerr.New(pgerr.UndefinedObject, "access method %q does not exist", name)
}
