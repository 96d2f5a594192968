// The error of a DROP naming a relation of another kind than it drops:
// 42809 "x" is not a table, with PostgreSQL's hint naming the DROP of
// the kind the relation is.
package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// dropWrongKind is DROP what's error for the relation keyed name, or nil
// when no relation has that key.
func (e *Engine) dropWrongKind(name, what string) error {
	var hint string
	switch kind, ok := e.kindOf(name); {
	case ok && kind == sql.DropTable:
		hint = "Use DROP TABLE to remove a table."
	case ok && kind == sql.DropView:
		hint = "Use DROP VIEW to remove a view."
	case ok:
		hint = "Use DROP MATERIALIZED VIEW to remove a materialized view."
	case e.seqs[name] != nil:
		hint = "Use DROP SEQUENCE to remove a sequence."
	case e.indexes[name] != nil || e.matIndexes[name] != nil:
		hint = "Use DROP INDEX to remove an index."
	default:
		return nil
	}
	return pgerr.New(pgerr.WrongObjectType, "%q is not %s", e.bareName(name), what).WithHint("%s", hint)
}
