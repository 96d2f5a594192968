package engine

import (
	"maps"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Comments on sequences are kept as a relation's are, under the
// sequence's key: they follow it into another schema and go with it.

// commentSequenceTarget checks a COMMENT ON that names a sequence, or
// one that is a SEQUENCE's, with PostgreSQL's errors.
func (e *Engine) commentSequenceTarget(c *sql.Comment) error {
	name := c.Relation
	if e.seqs[name] != nil {
		switch c.Kind {
		case sql.CommentSequence:
			return nil
		case sql.CommentColumn:
			return pgerr.New(pgerr.WrongObjectType, "cannot set comment on relation %q", name).
				WithDetail("This operation is not supported for sequences.")
		}
		return pgerr.New(pgerr.WrongObjectType, "%q is not %s", name, map[sql.CommentKind]string{sql.CommentTable: "a table",
			sql.CommentView: "a view", sql.CommentMatView: "a materialized view", sql.CommentIndex: "an index"}[c.Kind])
	}
	if _, isRel := e.kindOf(name); isRel || e.isIndex(name) {
		return pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", name)
	}
	return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
}

// moveComments gives the comments of object old to new.
func (e *Engine) moveComments(old, new string) error {
	c := e.comments[old]
	if c == nil {
		return nil
	}
	if err := e.setComments(old, nil); err != nil {
		return err
	}
	return e.setComments(new, maps.Clone(c))
}
