package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// RenameIndex is ALTER INDEX i RENAME TO j, and ALTER TABLE i RENAME TO j
// of an index: the engine renames the index of key Key (its statement
// names it so from then on) or, for the index of a PRIMARY KEY, UNIQUE or
// EXCLUDE constraint, renames the constraint with it, as PostgreSQL does.
// NewKey is the new name's key, in the index's schema.
type RenameIndex struct {
	Key, NewKey string
	Tag         string
	MissingOk   bool
	// NotFound is the statement's error when Key is no index either: an
	// ALTER TABLE's, with its position.
	NotFound error
	// NotKind is, for ALTER VIEW, MATERIALIZED VIEW or SEQUENCE, what an
	// index found is not ("a view"): 42809, as in PostgreSQL.
	NotKind string
}

func (*RenameIndex) bound() {}

// bindRenameIndex binds a RENAME TO of an index. ALTER INDEX of another
// relation renames it as ALTER TABLE does (PostgreSQL lets it); ok is
// false for a statement that is not the rename of an index.
func (b *binder) bindRenameIndex(rs *pg_query.RenameStmt) (_ Bound, ok bool, _ error) {
	rv := rs.Relation
	if rv == nil {
		return nil, false, nil
	}
	if q := b.qualifier(); q != nil {
		// ALTER … SET SCHEMA, bound as a rename to another schema's key,
		// does not move an index (PostgreSQL moves it with its table).
		from, _ := q.SplitKey(rv.Relname)
		if to, _ := q.SplitKey(rs.Newname); to != from {
			return nil, false, nil
		}
	}
	ri := &RenameIndex{Key: rv.Relname, NewKey: rs.Newname, Tag: "ALTER INDEX", MissingOk: rs.MissingOk}
	_, isRel := b.relationKind(rv.Relname)
	switch rs.RenameType {
	case pg_query.ObjectType_OBJECT_INDEX:
		if !isRel {
			return ri, true, nil
		}
		rs.RenameType = pg_query.ObjectType_OBJECT_TABLE
		bd, err := b.bindRename(rs)
		switch bd := bd.(type) {
		case *MoveRelation:
			bd.Tag = ri.Tag
		case *AlterTable:
			bd.Tag = ri.Tag
		}
		return bd, true, err
	case pg_query.ObjectType_OBJECT_VIEW, pg_query.ObjectType_OBJECT_MATVIEW, pg_query.ObjectType_OBJECT_SEQUENCE:
		if isRel {
			return nil, false, nil
		}
		ri.NotKind = map[pg_query.ObjectType]string{pg_query.ObjectType_OBJECT_VIEW: "a view",
			pg_query.ObjectType_OBJECT_MATVIEW: "a materialized view", pg_query.ObjectType_OBJECT_SEQUENCE: "a sequence"}[rs.RenameType]
		ri.Tag = "ALTER " + objectTypeWords(rs.RenameType)
		return ri, true, nil
	case pg_query.ObjectType_OBJECT_TABLE:
		if isRel {
			return nil, false, nil
		}
		ri.Tag = "ALTER TABLE"
		if !rs.MissingOk {
			_, _, ri.NotFound = b.alterTarget(rv, false)
		}
		return ri, true, nil
	}
	return nil, false, nil
}
