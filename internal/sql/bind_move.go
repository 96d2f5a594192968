package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// MoveRelation is ALTER SEQUENCE | VIEW | MATERIALIZED VIEW name SET
// SCHEMA s (and ALTER TABLE … SET SCHEMA of one of them, as PostgreSQL
// allows): the relation keyed Key takes the key NewKey, its name in
// schema Schema.
type MoveRelation struct {
	Kind   RelKind // KindSequence, KindView or KindMatView
	Key    string
	NewKey string
	Schema string
	// Rename: ALTER … RENAME TO, a new name in the same schema
	// (bind_rename_relation.go), not a move.
	Rename bool
	// Tag is the statement's command tag.
	Tag string
	// Notices are IF EXISTS's, when the relation does not exist; Key is
	// "" then.
	Notices []string
}

func (*MoveRelation) bound() {}

// bindMoveRelation binds SET SCHEMA of a sequence, a view or a
// materialized view; ok is false for another statement, which
// bindSetSchema binds. The schema st moves to has been checked.
func (b *binder) bindMoveRelation(st *pg_query.AlterObjectSchemaStmt) (Bound, bool, error) {
	rv := st.Relation
	if rv == nil {
		return nil, false, nil
	}
	var want RelKind
	switch st.ObjectType {
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		want = KindSequence
	case pg_query.ObjectType_OBJECT_VIEW:
		want = KindView
	case pg_query.ObjectType_OBJECT_MATVIEW:
		want = KindMatView
	case pg_query.ObjectType_OBJECT_TABLE:
		want = KindTable
	default:
		return nil, false, nil
	}
	tag := setSchemaTag(st.ObjectType)
	key := rv.Relname
	if rv.Schemaname != "" && rv.Schemaname != "public" {
		if systemSchema(rv.Schemaname) {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of system schemas")
		}
		return nil, true, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", rv.Schemaname, key)
	}
	kind, exists := b.relationKind(key)
	switch {
	case !exists && want == KindTable:
		return nil, false, nil // ALTER TABLE's own message
	case !exists && st.MissingOk:
		return &MoveRelation{Tag: tag, Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", rv.Relname)}}, true, nil
	case !exists:
		return nil, true, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	case want == KindTable && kind != KindTable:
		// ALTER TABLE moves a view, a materialized view or a sequence too.
		want = kind
	case want == KindTable:
		return nil, false, nil
	case kind != want:
		what := map[RelKind]string{KindSequence: "a sequence", KindView: "a view", KindMatView: "a materialized view"}[want]
		return nil, true, pgerr.New(pgerr.WrongObjectType, "%q is not %s", b.bareName(key), what)
	}
	name := b.bareName(key)
	to := name
	if st.Newschema != "public" {
		to = st.Newschema + "." + name
	}
	return &MoveRelation{Kind: want, Key: key, NewKey: to, Schema: st.Newschema, Tag: tag}, true, nil
}

// relationKind is the kind of the relation keyed key: a table, a view,
// a materialized view or a sequence.
func (b *binder) relationKind(key string) (RelKind, bool) {
	if _, ok := b.sequence(key); ok {
		return KindSequence, true
	}
	rel, ok := b.cat.Relation(key)
	if !ok {
		return 0, false
	}
	return rel.Kind, true
}

// RenameCreated names the relation that st, a CREATE [MATERIALIZED]
// VIEW or CREATE TABLE … AS resolved by QualifyNames, creates by the key
// key instead; false for another statement.
func RenameCreated(st *Stmt, key string) bool {
	var rv *pg_query.RangeVar
	switch n := st.Node; {
	case n.GetViewStmt() != nil:
		rv = n.GetViewStmt().View
	case n.GetCreateTableAsStmt() != nil:
		rv = n.GetCreateTableAsStmt().GetInto().GetRel()
	}
	if rv == nil {
		return false
	}
	rv.Schemaname, rv.Relname = "", key
	return true
}

// ViewDefinition is the defining query's text of st, a CREATE
// [MATERIALIZED] VIEW, as a view bound from it keeps it
// (CreateView.Definition).
func ViewDefinition(st *Stmt) string {
	b := &binder{stmt: st}
	return b.queryText(nil)
}
