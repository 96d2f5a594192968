package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ALTER … SET SCHEMA moves an object to another schema: its key changes
// from "s.name" to "u.name", which is a rename of the key. It is bound as
// ALTER … RENAME TO the new key, with what a rename of the object
// allows: a table's readers bound again over it (alter_views.go), a type
// or function not yet in use.

func (b *binder) bindSetSchema(st *pg_query.AlterObjectSchemaStmt) (Bound, error) {
	switch st.ObjectType {
	case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_TYPE, pg_query.ObjectType_OBJECT_DOMAIN,
		pg_query.ObjectType_OBJECT_FUNCTION, pg_query.ObjectType_OBJECT_PROCEDURE, pg_query.ObjectType_OBJECT_ROUTINE,
		pg_query.ObjectType_OBJECT_AGGREGATE, pg_query.ObjectType_OBJECT_SEQUENCE, pg_query.ObjectType_OBJECT_VIEW,
		pg_query.ObjectType_OBJECT_MATVIEW:
	case pg_query.ObjectType_OBJECT_STATISTIC_EXT:
		// Statistics objects are the engine's to find, by the search path.
		name := statsName(st.Object.GetList().GetItems())
		return &AlterStatistics{Schema: name.Schema, Name: name.Name, SetSchema: st.Newschema, IfExists: st.MissingOk, Target: -1}, nil
	default:
		return nil, b.refuse(-1, "ALTER %s … SET SCHEMA is not supported", objectTypeWords(st.ObjectType)).
			WithHint("create it again in schema %s", st.Newschema)
	}
	q := b.qualifier()
	switch {
	case st.Newschema == "pg_catalog" || st.Newschema == "information_schema" || st.Newschema == "pg_toast":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of system schemas")
	case st.Newschema == "pg_temp":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of temporary schemas")
	case st.Newschema != "public" && (q == nil || !q.SchemaExists(st.Newschema)):
		return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", st.Newschema)
	case st.Relation != nil && TempKey(st.Relation.Relname): // a session's temporary relation
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of temporary schemas")
	}
	if mv, ok, err := b.bindMoveRelation(st); ok {
		return mv, err
	}
	// The object's key, as QualifyNames resolved it.
	var key string
	rs := &pg_query.RenameStmt{RenameType: st.ObjectType, Relation: st.Relation, Object: st.Object, MissingOk: st.MissingOk}
	switch {
	case st.Relation != nil:
		key = st.Relation.Relname
		if st.Relation.Schemaname != "" && st.Relation.Schemaname != "public" {
			if systemSchema(st.Relation.Schemaname) {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of system schemas")
			}
			return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", st.Relation.Schemaname, key)
		}
	case st.Object.GetList() != nil:
		key = b.keyOfNames(st.Object.GetList().Items)
	case st.Object.GetObjectWithArgs() != nil:
		key = b.keyOfNames(st.Object.GetObjectWithArgs().Objname)
	}
	name := b.bareName(key)
	if st.Newschema != "public" {
		name = st.Newschema + "." + name
	}
	if name == key && !movesRoutine(st.ObjectType) {
		return &Schema{Tag: setSchemaTag(st.ObjectType)}, nil // already there
	}
	rs.Newname = name
	bound, err := b.bindRename(rs)
	// The move needs CREATE on the new schema, where a rename needs it on
	// the object's own or none: the engine tells them apart by Move.
	switch x := bound.(type) {
	case *RenameType:
		x.Move = true
	case *AlterFunction:
		x.Move = true
	case *AlterDomain:
		x.Move = true
	}
	return bound, err
}

// movesRoutine reports whether SET SCHEMA of kind t moves a function or
// a procedure, which the engine finds even when it is already in the
// schema: one that does not exist is an error.
func movesRoutine(t pg_query.ObjectType) bool {
	switch t {
	case pg_query.ObjectType_OBJECT_FUNCTION, pg_query.ObjectType_OBJECT_PROCEDURE, pg_query.ObjectType_OBJECT_ROUTINE:
		return true
	}
	return false
}

// keyOfNames is the key a name list resolved by QualifyNames names:
// "s.name", or public's name.
func (b *binder) keyOfNames(names []*pg_query.Node) string {
	schema, name, _ := nameParts(names)
	if schema == "" || schema == "public" {
		return name
	}
	return schema + "." + name
}

// setSchemaTag is the command tag of ALTER … SET SCHEMA of kind t.
func setSchemaTag(t pg_query.ObjectType) string {
	return "ALTER " + objectTypeWords(t)
}

// objectTypeWords names an object type as a statement spells it.
func objectTypeWords(t pg_query.ObjectType) string {
	switch t {
	case pg_query.ObjectType_OBJECT_TABLE:
		return "TABLE"
	case pg_query.ObjectType_OBJECT_VIEW:
		return "VIEW"
	case pg_query.ObjectType_OBJECT_MATVIEW:
		return "MATERIALIZED VIEW"
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		return "SEQUENCE"
	case pg_query.ObjectType_OBJECT_TYPE:
		return "TYPE"
	case pg_query.ObjectType_OBJECT_DOMAIN:
		return "DOMAIN"
	case pg_query.ObjectType_OBJECT_FUNCTION:
		return "FUNCTION"
	case pg_query.ObjectType_OBJECT_PROCEDURE:
		return "PROCEDURE"
	case pg_query.ObjectType_OBJECT_ROUTINE:
		return "ROUTINE"
	case pg_query.ObjectType_OBJECT_AGGREGATE:
		return "AGGREGATE"
	case pg_query.ObjectType_OBJECT_FOREIGN_TABLE:
		return "FOREIGN TABLE"
	}
	return "OBJECT"
}
