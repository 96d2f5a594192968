package sql

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ALTER SEQUENCE | VIEW | MATERIALIZED VIEW name RENAME TO new (and ALTER
// TABLE of one of them, as PostgreSQL allows) gives the relation a new
// key in its schema: the engine runs it as SET SCHEMA runs a move
// (MoveRelation with Rename set), which keeps a sequence's state and a
// view's plan, and writes the views over it again with its new name.

// bindRenameRelation binds RENAME TO of a sequence, a view or a
// materialized view; ok is false for another statement (a table's, which
// bindRename binds).
func (b *binder) bindRenameRelation(rs *pg_query.RenameStmt) (Bound, bool, error) {
	rv := rs.Relation
	if rv == nil {
		return nil, false, nil
	}
	want, tag := KindTable, "ALTER TABLE"
	switch rs.RenameType {
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		want, tag = KindSequence, "ALTER SEQUENCE"
	case pg_query.ObjectType_OBJECT_VIEW:
		want, tag = KindView, "ALTER VIEW"
	case pg_query.ObjectType_OBJECT_MATVIEW:
		want, tag = KindMatView, "ALTER MATERIALIZED VIEW"
	case pg_query.ObjectType_OBJECT_TABLE:
	default:
		return nil, false, nil
	}
	key := rv.Relname
	kind, exists := b.relationKind(key)
	switch {
	case !exists && want == KindTable:
		return nil, false, nil // ALTER TABLE's own message
	case !exists && rs.MissingOk:
		return &MoveRelation{Tag: tag, Rename: true, Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", rv.Relname)}}, true, nil
	case !exists:
		return nil, true, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	case want == KindTable && kind == KindTable:
		return nil, false, nil
	case want == KindTable:
		want = kind // ALTER TABLE renames a view, a materialized view or a sequence too
	case kind != want:
		what := map[RelKind]string{KindSequence: "a sequence", KindView: "a view", KindMatView: "a materialized view"}[want]
		return nil, true, pgerr.New(pgerr.WrongObjectType, "%q is not %s", b.bareName(key), what)
	}
	to := rs.Newname // the new key, as QualifyNames made it
	if TempKey(key) && !TempKey(to) {
		to = key[:strings.IndexByte(key, '.')+1] + to // in the session's temporary schema still
	}
	schema := "public"
	if q := b.qualifier(); q != nil {
		if s, _ := q.SplitKey(key); s != "" {
			schema = s
		}
	}
	return &MoveRelation{Kind: want, Key: key, NewKey: to, Schema: schema, Tag: tag, Rename: true}, true, nil
}
