package store

import "github.com/deltaview/deltaview/internal/engine"

var _ engine.RelationRenamer = (*File)(nil)

// RenameRelation implements engine.RelationRenamer: the view or
// materialized view old keeps its place in the catalog's order, under
// its new name and statement, with the privileges granted on it.
func (f *File) RenameRelation(old, new, text string) error {
	if f.readOnly {
		return f.errReadOnly()
	}
	return f.inTransaction(func() error {
		if _, err := f.conn.ExecContext(ctx, "UPDATE deltaview_catalog SET name = ?, sql = ? WHERE name = ?", new, text, old); err != nil {
			return err
		}
		_, err := f.conn.ExecContext(ctx, "UPDATE deltaview_grants SET relation = ? WHERE relation = ?", new, old)
		return err
	})
}
