package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER TABLE's attributes that change nothing the engine does (column
// statistics, storage, compression and options, the table's persistence
// and replica identity: sql/bind_column_attrs.go) are checked here where
// they need the engine's objects: the index REPLICA IDENTITY USING INDEX
// names, and the foreign keys that reference a table SET LOGGED or SET
// UNLOGGED.

// alterAttrsCheck checks a's attributes against the engine's objects,
// with PostgreSQL's errors. A session restoring a database file checks
// nothing: its indexes are made after its tables.
func (e *Engine) alterAttrsCheck(a *sql.AlterTable, restoring bool) error {
	if err := numberingCheck(a, restoring); err != nil {
		return err
	}
	t := e.tables[a.Table]
	if t == nil || restoring {
		return nil
	}
	if a.ReplicaIndex != "" {
		if err := e.replicaIndexCheck(t, a.ReplicaIndex, a.New); err != nil {
			return err
		}
	}
	if a.Persistence && a.New.Unlogged && e.fkeys != nil {
		for _, l := range e.fkeys.in[t] {
			if l.child != t && !l.child.def.Unlogged {
				return sql.PersistenceError(a.Table, l.child.name, a.New.Unlogged)
			}
		}
	}
	return nil
}

// replicaIndexCheck checks that the index named can be t's replica
// identity, as PostgreSQL's ATExecReplicaIdentity does: a unique,
// immediate index of t's own on columns NOT NULL in def.
func (e *Engine) replicaIndexCheck(t *table, name string, def *sql.CreateTable) error {
	owner := e.indexOwner(name)
	if owner == nil {
		for _, x := range t.excl {
			if x.x.Name == name {
				owner = t
			}
		}
	}
	switch {
	case owner == nil:
		if _, ok := e.Relation(name); ok {
			return pgerr.New(pgerr.WrongObjectType, "%q is not an index", e.bareName(name))
		}
		return pgerr.New(pgerr.UndefinedObject, "index %q for table %q does not exist", e.bareName(name), e.bareName(t.name))
	case owner != t:
		return pgerr.New(pgerr.WrongObjectType, "%q is not an index for table %q", e.bareName(name), e.bareName(t.name))
	}
	var u *uniqueIndex
	for _, k := range t.uniques {
		if k.name == name {
			u = k
		}
	}
	for _, ix := range append(slices.Clip(t.indexes), t.xindexes...) {
		if ix.name == name && ix.unique != nil {
			u = ix.unique
		}
	}
	if u == nil {
		return pgerr.New(pgerr.WrongObjectType, "cannot use non-unique index %q as replica identity", name)
	}
	if u.deferrable {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot use non-immediate index %q as replica identity", name)
	}
	if u.x != nil && slices.ContainsFunc(u.x.exprs, func(x expr.Expr) bool { return x != nil }) {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot use expression index %q as replica identity", name)
	}
	if u.x != nil && u.x.where != nil {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot use partial index %q as replica identity", name)
	}
	for _, c := range u.cols {
		if c >= 0 && c < len(def.Cols) && !def.Cols[c].NotNull && !slices.Contains(def.PrimaryKey, c) {
			return pgerr.New(pgerr.WrongObjectType, "index %q cannot be used as replica identity because column %q is nullable", name, def.Cols[c].Name)
		}
	}
	return nil
}

// isReplicaIndex reports whether the index named is t's replica identity.
func (t *table) isReplicaIndex(name string) bool {
	return t.def.ReplIdent() == sql.ReplicaIndex && t.def.ReplicaIndex == name
}

// alterWarnings puts ALTER TABLE's warnings first among its result's
// notices, as the commands that raise them run first.
func alterWarnings(res *Result, a *sql.AlterTable) {
	if len(a.Warnings) == 0 {
		return
	}
	levels := map[int]string{}
	for i := range a.Warnings {
		levels[i] = "WARNING"
	}
	for i, l := range res.NoticeLevels {
		levels[i+len(a.Warnings)] = l
	}
	res.Notices = append(slices.Clone(a.Warnings), res.Notices...)
	res.NoticeLevels = levels
}

// tableDef is the definition of a table's catalog row, nil for another
// relation's (an index's, a view's, a partition's).
func (rel *catRel) tableDef() *sql.CreateTable {
	if rel.kind != 'r' || rel.t == nil || rel.on != nil {
		return nil
	}
	return rel.t.def
}

// columnDef is the definition of column i of a table, a partitioned table
// or a partition (its root's, whose columns it has), nil for another
// relation's.
func (rel *catRel) columnDef(i int) *sql.ColumnDef {
	var def *sql.CreateTable
	switch {
	case rel.on != nil:
	case rel.t != nil && (rel.kind == 'r' || rel.kind == 'p'):
		def = rel.t.def
	case rel.part != nil && rel.part.root != nil:
		def = rel.part.root.def
	}
	if def == nil || i >= len(def.Cols) {
		return nil
	}
	return &def.Cols[i]
}

// attOptions is pg_attribute.attoptions: NULL for none.
func attOptions(opts []string) any {
	if len(opts) == 0 {
		return nil
	}
	return opts
}
