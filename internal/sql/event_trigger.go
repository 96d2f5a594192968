package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Event triggers: CREATE EVENT TRIGGER name ON event [WHEN TAG IN (…)]
// EXECUTE FUNCTION f(), ALTER EVENT TRIGGER … ENABLE | DISABLE | RENAME
// TO | OWNER TO, DROP EVENT TRIGGER. The function is a PL/pgSQL one
// declared RETURNS event_trigger, without parameters.

// CreateEventTrigger is CREATE EVENT TRIGGER.
type CreateEventTrigger struct {
	Name, Event string
	// Func is the function's name, FuncSig its signature.
	Func, FuncSig string
	// Tags are the command tags of WHEN TAG IN (…), upper case; nil for
	// every command.
	Tags []string
}

// AlterEventTrigger is ALTER EVENT TRIGGER: one of Enabled (O, D, R or
// A, as pg_event_trigger.evtenabled), Rename or Owner is set.
type AlterEventTrigger struct {
	Name          string
	Enabled       byte
	Rename, Owner string
}

// DropEventTrigger is DROP EVENT TRIGGER [IF EXISTS] name, ….
type DropEventTrigger struct {
	Names    []string
	IfExists bool
	Cascade  bool
}

func (*CreateEventTrigger) bound() {}
func (*AlterEventTrigger) bound()  {}
func (*DropEventTrigger) bound()   {}

// EventTriggerEvents are the events an event trigger may fire on.
var EventTriggerEvents = []string{"ddl_command_start", "ddl_command_end", "sql_drop", "table_rewrite"}

// eventTriggerResult checks a function declared RETURNS event_trigger,
// as PostgreSQL's validators do.
func (b *binder) eventTriggerResult(f *Function) error {
	if f.Language != LangPLpgSQL {
		return pgerr.New(CodeInvalidFunctionDef, "SQL functions cannot return type event_trigger")
	}
	if len(f.Params) > 0 {
		return pgerr.New(CodeInvalidFunctionDef, "event trigger functions cannot have declared arguments")
	}
	f.Trigger, f.EventTrigger = true, true
	return nil
}

// bindEventTriggerStmt binds the statements of event triggers; ok is
// false for other statements.
func (b *binder) bindEventTriggerStmt(n *pg_query.Node) (Bound, bool, error) {
	switch {
	case n.GetCreateEventTrigStmt() != nil:
		bd, err := b.bindCreateEventTrigger(n.GetCreateEventTrigStmt())
		return bd, true, err
	case n.GetAlterEventTrigStmt() != nil:
		s := n.GetAlterEventTrigStmt()
		return &AlterEventTrigger{Name: s.Trigname, Enabled: s.Tgenabled[0]}, true, nil
	case n.GetRenameStmt() != nil && n.GetRenameStmt().RenameType == pg_query.ObjectType_OBJECT_EVENT_TRIGGER:
		s := n.GetRenameStmt()
		return &AlterEventTrigger{Name: s.Object.GetString_().GetSval(), Rename: s.Newname}, true, nil
	case n.GetAlterOwnerStmt() != nil && n.GetAlterOwnerStmt().ObjectType == pg_query.ObjectType_OBJECT_EVENT_TRIGGER:
		s := n.GetAlterOwnerStmt()
		owner := s.Newowner.GetRolename()
		switch s.Newowner.GetRoletype() {
		case pg_query.RoleSpecType_ROLESPEC_CURRENT_USER, pg_query.RoleSpecType_ROLESPEC_CURRENT_ROLE, pg_query.RoleSpecType_ROLESPEC_SESSION_USER:
			owner = "current_user"
		}
		return &AlterEventTrigger{Name: s.Object.GetString_().GetSval(), Owner: owner}, true, nil
	case n.GetDropStmt() != nil && n.GetDropStmt().RemoveType == pg_query.ObjectType_OBJECT_EVENT_TRIGGER:
		s := n.GetDropStmt()
		d := &DropEventTrigger{IfExists: s.MissingOk, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE}
		for _, o := range s.Objects {
			d.Names = append(d.Names, o.GetString_().GetSval())
		}
		return d, true, nil
	}
	return nil, false, nil
}

func (b *binder) bindCreateEventTrigger(s *pg_query.CreateEventTrigStmt) (Bound, error) {
	out := &CreateEventTrigger{Name: s.Trigname, Event: s.Eventname}
	if !slices.Contains(EventTriggerEvents, s.Eventname) {
		return nil, pgerr.New(pgerr.SyntaxError, "unrecognized event name %q", s.Eventname)
	}
	seen := false
	for _, w := range s.Whenclause {
		de := w.GetDefElem()
		if de == nil {
			continue
		}
		if de.Defname != "tag" {
			return nil, pgerr.New(pgerr.SyntaxError, "unrecognized filter variable %q", de.Defname)
		}
		if seen {
			return nil, pgerr.New(pgerr.SyntaxError, "filter variable %q specified more than once", de.Defname)
		}
		seen = true
		for _, v := range de.Arg.GetList().GetItems() {
			tag := strings.ToUpper(v.GetString_().GetSval())
			switch {
			case eventTags[tag]:
			case otherTags[tag]:
				return nil, pgerr.New(pgerr.FeatureNotSupported, "event triggers are not supported for %s", tag)
			default:
				return nil, pgerr.New(pgerr.SyntaxError, "filter value %q not recognized for filter variable %q", v.GetString_().GetSval(), "tag")
			}
			if s.Eventname == "table_rewrite" && tag != "ALTER TABLE" && tag != "ALTER TYPE" && tag != "ALTER MATERIALIZED VIEW" {
				// The statements that may rewrite a table, as PostgreSQL
				// checks.
				return nil, pgerr.New(pgerr.FeatureNotSupported, "event triggers are not supported for %s", tag)
			}
			out.Tags = append(out.Tags, tag)
		}
	}
	var names []string
	for _, n := range s.Funcname {
		names = append(names, n.GetString_().GetSval())
	}
	var fn *Function
	if fc, ok := b.cat.(FunctionCatalog); ok {
		for _, f := range fc.Functions(names[len(names)-1]) {
			if len(f.Params) == 0 && !f.Procedure {
				fn = f
			}
		}
	}
	if fn == nil {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s() does not exist", strings.Join(names, "."))
	}
	if !fn.EventTrigger {
		return nil, pgerr.New(pgerr.InvalidObjectDef, "function %s must return type event_trigger", strings.Join(names, "."))
	}
	out.Func, out.FuncSig = fn.Name, fn.Signature()
	return out, nil
}

// EventTag is the command tag PostgreSQL gives a statement, as event
// triggers see it, "" for a statement that fires none.
func EventTag(n *pg_query.Node) string {
	tag := commandTag(n)
	if !eventTags[tag] {
		return ""
	}
	return tag
}

// objectWords names object types as command tags do.
func objectWords(t pg_query.ObjectType) string {
	s := strings.TrimPrefix(t.String(), "OBJECT_")
	switch s {
	case "MATVIEW":
		return "MATERIALIZED VIEW"
	case "TABCONSTRAINT", "COLUMN":
		return "TABLE"
	case "DOMCONSTRAINT":
		return "DOMAIN"
	case "ATTRIBUTE":
		return "TYPE"
	case "STATISTIC_EXT":
		return "STATISTICS"
	case "FDW":
		return "FOREIGN DATA WRAPPER"
	case "FOREIGN_SERVER":
		return "SERVER"
	case "OPCLASS":
		return "OPERATOR CLASS"
	case "OPFAMILY":
		return "OPERATOR FAMILY"
	case "TSCONFIGURATION":
		return "TEXT SEARCH CONFIGURATION"
	case "TSDICTIONARY":
		return "TEXT SEARCH DICTIONARY"
	case "TSPARSER":
		return "TEXT SEARCH PARSER"
	case "TSTEMPLATE":
		return "TEXT SEARCH TEMPLATE"
	case "ACCESS_METHOD":
		return "ACCESS METHOD"
	}
	return strings.ReplaceAll(s, "_", " ")
}

// commandTag is the command tag of a DDL statement, "" for one this does
// not name.
func commandTag(n *pg_query.Node) string {
	switch {
	case n.GetCreateStmt() != nil:
		return "CREATE TABLE"
	case n.GetCreateForeignTableStmt() != nil:
		return "CREATE FOREIGN TABLE"
	case n.GetCreateTableAsStmt() != nil:
		s := n.GetCreateTableAsStmt()
		switch {
		case s.Objtype == pg_query.ObjectType_OBJECT_MATVIEW:
			return "CREATE MATERIALIZED VIEW"
		case s.IsSelectInto:
			return "SELECT INTO"
		}
		return "CREATE TABLE AS"
	case n.GetSelectStmt() != nil && n.GetSelectStmt().IntoClause != nil:
		return "SELECT INTO"
	case n.GetViewStmt() != nil:
		return "CREATE VIEW"
	case n.GetIndexStmt() != nil:
		return "CREATE INDEX"
	case n.GetCreateSeqStmt() != nil:
		return "CREATE SEQUENCE"
	case n.GetAlterSeqStmt() != nil:
		return "ALTER SEQUENCE"
	case n.GetCreateFunctionStmt() != nil:
		if n.GetCreateFunctionStmt().IsProcedure {
			return "CREATE PROCEDURE"
		}
		return "CREATE FUNCTION"
	case n.GetAlterFunctionStmt() != nil:
		return "ALTER " + objectWords(n.GetAlterFunctionStmt().Objtype)
	case n.GetDropStmt() != nil:
		return "DROP " + objectWords(n.GetDropStmt().RemoveType)
	case n.GetRenameStmt() != nil:
		s := n.GetRenameStmt()
		if s.RenameType == pg_query.ObjectType_OBJECT_COLUMN || s.RenameType == pg_query.ObjectType_OBJECT_TABCONSTRAINT {
			return "ALTER " + objectWords(s.RelationType)
		}
		return "ALTER " + objectWords(s.RenameType)
	case n.GetAlterTableStmt() != nil:
		return "ALTER " + objectWords(n.GetAlterTableStmt().Objtype)
	case n.GetAlterObjectSchemaStmt() != nil:
		return "ALTER " + objectWords(n.GetAlterObjectSchemaStmt().ObjectType)
	case n.GetAlterOwnerStmt() != nil:
		return "ALTER " + objectWords(n.GetAlterOwnerStmt().ObjectType)
	case n.GetCompositeTypeStmt() != nil, n.GetCreateEnumStmt() != nil, n.GetCreateRangeStmt() != nil:
		return "CREATE TYPE"
	case n.GetAlterEnumStmt() != nil, n.GetAlterTypeStmt() != nil:
		return "ALTER TYPE"
	case n.GetDefineStmt() != nil:
		return "CREATE " + objectWords(n.GetDefineStmt().Kind)
	case n.GetCreateDomainStmt() != nil:
		return "CREATE DOMAIN"
	case n.GetAlterDomainStmt() != nil:
		return "ALTER DOMAIN"
	case n.GetCreateSchemaStmt() != nil:
		return "CREATE SCHEMA"
	case n.GetCreateTrigStmt() != nil:
		return "CREATE TRIGGER"
	case n.GetCreatePolicyStmt() != nil:
		return "CREATE POLICY"
	case n.GetAlterPolicyStmt() != nil:
		return "ALTER POLICY"
	case n.GetCreateCastStmt() != nil:
		return "CREATE CAST"
	case n.GetCreateExtensionStmt() != nil:
		return "CREATE EXTENSION"
	case n.GetAlterExtensionStmt() != nil, n.GetAlterExtensionContentsStmt() != nil:
		return "ALTER EXTENSION"
	case n.GetCreateStatsStmt() != nil:
		return "CREATE STATISTICS"
	case n.GetAlterStatsStmt() != nil:
		return "ALTER STATISTICS"
	case n.GetCommentStmt() != nil:
		return "COMMENT"
	case n.GetGrantStmt() != nil:
		if n.GetGrantStmt().IsGrant {
			return "GRANT"
		}
		return "REVOKE"
	case n.GetRefreshMatViewStmt() != nil:
		return "REFRESH MATERIALIZED VIEW"
	case n.GetRuleStmt() != nil:
		return "CREATE RULE"
	case n.GetCreateSubscriptionStmt() != nil:
		return "CREATE SUBSCRIPTION"
	case n.GetAlterSubscriptionStmt() != nil:
		return "ALTER SUBSCRIPTION"
	case n.GetDropSubscriptionStmt() != nil:
		return "DROP SUBSCRIPTION"
	case n.GetCreateForeignServerStmt() != nil:
		return "CREATE SERVER"
	case n.GetAlterDefaultPrivilegesStmt() != nil:
		return "ALTER DEFAULT PRIVILEGES"
	case n.GetDropOwnedStmt() != nil:
		return "DROP OWNED"
	case n.GetCreatePublicationStmt() != nil:
		return "CREATE PUBLICATION"
	case n.GetAlterPublicationStmt() != nil:
		return "ALTER PUBLICATION"
	case n.GetCreateConversionStmt() != nil:
		return "CREATE CONVERSION"
	case n.GetCreateOpClassStmt() != nil:
		return "CREATE OPERATOR CLASS"
	case n.GetCreateOpFamilyStmt() != nil:
		return "CREATE OPERATOR FAMILY"
	case n.GetAlterOperatorStmt() != nil:
		return "ALTER OPERATOR"
	case n.GetAlterCollationStmt() != nil:
		return "ALTER COLLATION"
	}
	return ""
}

// eventTags are the command tags event triggers fire for, as PostgreSQL
// 15 lists them; otherTags the other tags it knows.
var eventTags, otherTags = tagSet(`ALTER ACCESS METHOD|ALTER AGGREGATE|ALTER CAST|ALTER COLLATION|ALTER CONVERSION|ALTER DEFAULT PRIVILEGES|ALTER DOMAIN|ALTER EXTENSION|ALTER FOREIGN DATA WRAPPER|ALTER FOREIGN TABLE|ALTER FUNCTION|ALTER INDEX|ALTER LANGUAGE|ALTER LARGE OBJECT|ALTER MATERIALIZED VIEW|ALTER OPERATOR|ALTER OPERATOR CLASS|ALTER OPERATOR FAMILY|ALTER POLICY|ALTER PROCEDURE|ALTER PUBLICATION|ALTER ROUTINE|ALTER RULE|ALTER SCHEMA|ALTER SEQUENCE|ALTER SERVER|ALTER STATISTICS|ALTER SUBSCRIPTION|ALTER TABLE|ALTER TEXT SEARCH CONFIGURATION|ALTER TEXT SEARCH DICTIONARY|ALTER TEXT SEARCH PARSER|ALTER TEXT SEARCH TEMPLATE|ALTER TRANSFORM|ALTER TRIGGER|ALTER TYPE|ALTER USER MAPPING|ALTER VIEW|COMMENT|CREATE ACCESS METHOD|CREATE AGGREGATE|CREATE CAST|CREATE COLLATION|CREATE CONVERSION|CREATE DOMAIN|CREATE EXTENSION|CREATE FOREIGN DATA WRAPPER|CREATE FOREIGN TABLE|CREATE FUNCTION|CREATE INDEX|CREATE LANGUAGE|CREATE MATERIALIZED VIEW|CREATE OPERATOR|CREATE OPERATOR CLASS|CREATE OPERATOR FAMILY|CREATE POLICY|CREATE PROCEDURE|CREATE PUBLICATION|CREATE ROUTINE|CREATE RULE|CREATE SCHEMA|CREATE SEQUENCE|CREATE SERVER|CREATE STATISTICS|CREATE SUBSCRIPTION|CREATE TABLE|CREATE TABLE AS|CREATE TEXT SEARCH CONFIGURATION|CREATE TEXT SEARCH DICTIONARY|CREATE TEXT SEARCH PARSER|CREATE TEXT SEARCH TEMPLATE|CREATE TRANSFORM|CREATE TRIGGER|CREATE TYPE|CREATE USER MAPPING|CREATE VIEW|DROP ACCESS METHOD|DROP AGGREGATE|DROP CAST|DROP COLLATION|DROP CONVERSION|DROP DOMAIN|DROP EXTENSION|DROP FOREIGN DATA WRAPPER|DROP FOREIGN TABLE|DROP FUNCTION|DROP INDEX|DROP LANGUAGE|DROP MATERIALIZED VIEW|DROP OPERATOR|DROP OPERATOR CLASS|DROP OPERATOR FAMILY|DROP OWNED|DROP POLICY|DROP PROCEDURE|DROP PUBLICATION|DROP ROUTINE|DROP RULE|DROP SCHEMA|DROP SEQUENCE|DROP SERVER|DROP STATISTICS|DROP SUBSCRIPTION|DROP TABLE|DROP TEXT SEARCH CONFIGURATION|DROP TEXT SEARCH DICTIONARY|DROP TEXT SEARCH PARSER|DROP TEXT SEARCH TEMPLATE|DROP TRANSFORM|DROP TRIGGER|DROP TYPE|DROP USER MAPPING|DROP VIEW|GRANT|IMPORT FOREIGN SCHEMA|REFRESH MATERIALIZED VIEW|REVOKE|SECURITY LABEL|SELECT INTO`,
	`ALTER DATABASE|ALTER EVENT TRIGGER|ALTER ROLE|ALTER SYSTEM|ALTER TABLESPACE|ANALYZE|BEGIN|CALL|CHECKPOINT|CLOSE|CLOSE CURSOR|CLOSE CURSOR ALL|CLUSTER|COMMIT|COMMIT PREPARED|COPY|COPY FROM|CREATE DATABASE|CREATE EVENT TRIGGER|CREATE ROLE|CREATE TABLESPACE|DEALLOCATE|DEALLOCATE ALL|DECLARE CURSOR|DELETE|DISCARD|DISCARD ALL|DISCARD PLANS|DISCARD SEQUENCES|DISCARD TEMP|DO|DROP DATABASE|DROP EVENT TRIGGER|DROP ROLE|DROP TABLESPACE|EXECUTE|EXPLAIN|FETCH|GRANT ROLE|INSERT|LISTEN|LOAD|LOCK TABLE|MERGE|MOVE|NOTIFY|PREPARE|PREPARE TRANSACTION|REASSIGN OWNED|REINDEX|RELEASE|RESET|REVOKE ROLE|ROLLBACK|ROLLBACK PREPARED|SAVEPOINT|SELECT|SELECT FOR KEY SHARE|SELECT FOR NO KEY UPDATE|SELECT FOR SHARE|SELECT FOR UPDATE|SET|SET CONSTRAINTS|SHOW|START TRANSACTION|TRUNCATE TABLE|UNLISTEN|UPDATE|VACUUM`)

func tagSet(ok, other string) (map[string]bool, map[string]bool) {
	set := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, t := range strings.Split(s, "|") {
			m[t] = true
		}
		return m
	}
	return set(ok), set(other)
}
