package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// pg_tablespace_location is the empty string for the built-in tablespaces, as in
// PostgreSQL (their place is the data directory), NULL for another oid.
func init() {
	catFuncs["pg_tablespace_location"] = catFunc{sigs: [][]value.Kind{{oidK}}, result: textK, strict: true,
		eval: func(_ *expr.SysCatalog, a []value.Value) (value.Value, error) {
			if o := a[0].OID(); o == 1663 || o == 1664 {
				return value.NewText(value.Text, ""), nil
			}
			return value.Null, nil
		}}
}

// Tablespaces, collations, conversions and event triggers. The engine
// keeps its tables in one database file (or in memory): its one
// tablespace is pg_default, which the TABLESPACE clauses of CREATE TABLE,
// CREATE INDEX, CREATE TABLE AS, a constraint's USING INDEX TABLESPACE and
// ALTER … SET TABLESPACE may name (another name is 42704, pg_global
// 22023, as PostgreSQL has them), and ALTER … ALL IN TABLESPACE
// pg_default SET TABLESPACE pg_default moves nothing; CREATE, ALTER and
// DROP TABLESPACE are
// refused, as are CREATE COLLATION (the collations are C, POSIX and
// default), CREATE CONVERSION (client and server speak UTF8) and event
// triggers.

// checkTablespaces checks the tablespaces that statement n names.
func (b *binder) checkTablespaces(n *pg_query.Node) error {
	var err error
	check := func(name string) {
		switch {
		case err != nil || name == "" || name == "pg_default":
		case name == "pg_global":
			err = pgerr.New(pgerr.InvalidParameter, "only shared relations can be placed in pg_global tablespace")
		default:
			err = pgerr.New(pgerr.UndefinedObject, "tablespace %q does not exist", name)
		}
	}
	walkNodes(n.ProtoReflect(), func(m *pg_query.Node) {
		switch {
		case m.GetCreateStmt() != nil:
			check(m.GetCreateStmt().Tablespacename)
		case m.GetIndexStmt() != nil:
			check(m.GetIndexStmt().TableSpace)
		case m.GetCreateTableAsStmt() != nil && m.GetCreateTableAsStmt().Into != nil:
			check(m.GetCreateTableAsStmt().Into.TableSpaceName)
		case m.GetConstraint() != nil:
			check(m.GetConstraint().Indexspace)
		case m.GetAlterTableCmd() != nil && m.GetAlterTableCmd().Subtype == pg_query.AlterTableType_AT_SetTableSpace:
			check(m.GetAlterTableCmd().Name)
		}
	})
	return err
}

// refuseObjectKinds refuses the statements of objects the engine has no
// place for; ok is false for other statements.
func refuseObjectKinds(n *pg_query.Node) (ok bool, err error) {
	refuse := func(what, hint string) (bool, error) {
		return true, pgerr.New(pgerr.FeatureNotSupported, "%s", what).WithHint("%s", hint)
	}
	const spaceHint = "the tables live in the database file; its one tablespace is pg_default"
	switch {
	case n.GetCreateTableSpaceStmt() != nil:
		return refuse("CREATE TABLESPACE is not supported", spaceHint)
	case n.GetDropTableSpaceStmt() != nil:
		return refuse("DROP TABLESPACE is not supported", spaceHint)
	case n.GetAlterTableSpaceOptionsStmt() != nil,
		n.GetRenameStmt() != nil && n.GetRenameStmt().RenameType == pg_query.ObjectType_OBJECT_TABLESPACE:
		return refuse("ALTER TABLESPACE is not supported", spaceHint)
	case n.GetCreateConversionStmt() != nil:
		return refuse("CREATE CONVERSION is not supported", "the server and its clients speak UTF8")
	case n.GetCreatePublicationStmt() != nil, n.GetAlterPublicationStmt() != nil,
		n.GetDropStmt() != nil && n.GetDropStmt().RemoveType == pg_query.ObjectType_OBJECT_PUBLICATION:
		return refuse("publications are not supported: the server does not speak PostgreSQL's replication protocol, so nothing could subscribe to one",
			"follow a view's changes with SUBSCRIBE v, or COPY (SUBSCRIBE v) TO STDOUT through deltaview serve")
	}
	return false, nil
}

// bindMoveAll binds ALTER TABLE | INDEX | MATERIALIZED VIEW ALL IN
// TABLESPACE a [OWNED BY …] SET TABLESPACE b: with both pg_default
// nothing moves, which the engine runs as a statement with nothing to
// do.
func bindMoveAll(m *pg_query.AlterTableMoveAllStmt) (Bound, error) {
	for _, name := range []string{m.OrigTablespacename, m.NewTablespacename} {
		switch name {
		case "pg_default":
		case "pg_global":
			return nil, pgerr.New(pgerr.InvalidParameter, "cannot move relations in to or out of pg_global tablespace")
		default:
			return nil, pgerr.New(pgerr.UndefinedObject, "tablespace %q does not exist", name)
		}
	}
	tag := map[pg_query.ObjectType]string{pg_query.ObjectType_OBJECT_INDEX: "ALTER INDEX",
		pg_query.ObjectType_OBJECT_MATVIEW: "ALTER MATERIALIZED VIEW"}[m.Objtype]
	if tag == "" {
		tag = "ALTER TABLE"
	}
	return &Maintenance{Tag: tag}, nil
}
