package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// RenameTrigger is ALTER TRIGGER name ON table RENAME TO newname.
type RenameTrigger struct {
	Table, Name, NewName string
}

func (*RenameTrigger) bound() {}

// bindRenameTrigger binds ALTER TRIGGER … ON table RENAME TO.
func (b *binder) bindRenameTrigger(rs *pg_query.RenameStmt) (Bound, error) {
	rel, ok := b.cat.Relation(rs.Relation.Relname)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rs.Relation.Relname)
	}
	return &RenameTrigger{Table: rel.Name, Name: rs.Subname, NewName: rs.Newname}, nil
}
