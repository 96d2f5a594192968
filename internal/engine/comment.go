package engine

import (
	"maps"
	"slices"
	"sort"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Comments (COMMENT ON … IS …) describe tables, views, materialized views,
// sequences (comment_sequence.go), indexes and their columns, as PostgreSQL's pg_description does. They are
// kept by name, per object (e.comments: object → column → text, the
// column "" for the object itself), follow a table and its columns when
// ALTER TABLE renames them, and go with what they describe. A store that
// keeps them (CommentStore) records each object's comments whole at each
// change.

// CommentStore is implemented by a Store that keeps comments.
type CommentStore interface {
	// SaveComments records the comments of the object named (by column,
	// "" for the object), replacing those it had; none removes them.
	SaveComments(object string, comments map[string]string) error
}

// StoredComment is a comment as a store records it.
type StoredComment struct {
	Object, Column, Text string
}

func (closedStore) SaveComments(string, map[string]string) error { return errClosedStore() }

// execComment runs COMMENT ON.
func (e *Engine) execComment(c *sql.Comment) (Result, error) {
	object, column := c.Relation, c.Column
	if c.Kind >= sql.CommentType {
		var err error
		if object, column, err = e.commentObject(c); err != nil {
			return Result{}, err
		}
	} else if err := e.commentTarget(c); err != nil {
		return Result{}, err
	}
	m := maps.Clone(e.comments[object])
	if m == nil {
		m = map[string]string{}
	}
	switch {
	case c.Text == "" && c.Kind == sql.CommentExtension:
		m[column] = commentRemoved // its control file's goes too
	case c.Text == "" && c.Kind >= sql.CommentType && e.hasBuiltinDescription(object, column):
		m[column] = commentRemoved // PostgreSQL's own (the public schema's) goes too
	case c.Text == "":
		delete(m, column)
	default:
		m[column] = c.Text
	}
	if err := e.setComments(object, m); err != nil {
		return Result{}, err
	}
	return Result{Tag: "COMMENT"}, nil
}

// commentTarget checks that the object COMMENT ON names exists and is of
// the kind named, with PostgreSQL's errors.
func (e *Engine) commentTarget(c *sql.Comment) error {
	name := c.Relation
	if c.Kind == sql.CommentSequence || e.seqs[name] != nil {
		return e.commentSequenceTarget(c)
	}
	kind, isRel := e.kindOf(name)
	isIndex := e.isIndex(name)
	if ct := e.composites[name]; ct != nil && c.Kind == sql.CommentColumn && !isRel {
		for _, a := range ct.Attrs {
			if a.Name == c.Column {
				return nil
			}
		}
		return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", c.Column, name)
	}
	if !isRel && !isIndex {
		if _, sys := e.Relation(name); sys {
			return pgerr.New(pgerr.WrongObjectType, "cannot comment on system view %q", name)
		}
		return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	want := map[sql.CommentKind]sql.DropKind{sql.CommentTable: sql.DropTable, sql.CommentView: sql.DropView, sql.CommentMatView: sql.DropMatView}
	switch c.Kind {
	case sql.CommentIndex:
		if !isIndex {
			return pgerr.New(pgerr.WrongObjectType, "%q is not an index", name)
		}
	case sql.CommentColumn:
		cols, _ := e.columnsOf(name)
		if !isRel || !slices.Contains(cols, c.Column) {
			return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", c.Column, name)
		}
	default:
		if !isRel || kind != want[c.Kind] {
			return pgerr.New(pgerr.WrongObjectType, "%q is not a %s", name, map[sql.CommentKind]string{
				sql.CommentTable: "table", sql.CommentView: "view", sql.CommentMatView: "materialized view"}[c.Kind])
		}
	}
	return nil
}

// isIndex reports whether name is an index: one CREATE INDEX made, or
// the index of a table's primary key or UNIQUE constraint.
func (e *Engine) isIndex(name string) bool {
	if e.indexes[name] != nil {
		return true
	}
	for _, t := range e.tables {
		for _, u := range t.uniques {
			if u.name == name {
				return true
			}
		}
	}
	return false
}

// columnsOf returns the columns of the table or view named, in order.
func (e *Engine) columnsOf(name string) ([]string, bool) {
	var out []string
	switch {
	case e.tables[name] != nil:
		for _, c := range e.tables[name].def.Cols {
			out = append(out, c.Name)
		}
	case e.views[name] != nil:
		for _, c := range e.views[name].meta().cols {
			out = append(out, c.Name)
		}
	case e.named[name] != nil:
		for _, c := range e.named[name].cols {
			out = append(out, c.Name)
		}
	case e.composites[name] != nil:
		for _, a := range e.composites[name].Attrs {
			out = append(out, a.Name)
		}
	default:
		return nil, false
	}
	return out, true
}

// setComments makes m the comments of object, in memory and in the
// store.
func (e *Engine) setComments(object string, m map[string]string) error {
	base := object
	if _, n, ok := splitCommentKey(object); ok {
		base = n
	}
	if isTemp(base) {
		// A temporary table's comments live and go with it, gone or not.
	} else if cs, ok := e.store.(CommentStore); ok && e.store != nil {
		if err := cs.SaveComments(object, m); err != nil {
			return err
		}
	}
	if len(m) == 0 {
		delete(e.comments, object)
		return nil
	}
	if e.comments == nil {
		e.comments = map[string]map[string]string{}
	}
	e.comments[object] = m
	return nil
}

// renameComments moves the comments of the table ALTER TABLE a changed
// to its new name and columns (t is the table before), dropping those of
// the columns dropped.
func (e *Engine) renameComments(t *table, a *sql.AlterTable) error {
	old := e.comments[a.Table]
	if old == nil {
		if a.New.Name != a.Table {
			return e.moveObjectComments(a.Table, a.New.Name, "constraint", "trigger", "rule", "policy")
		}
		return nil
	}
	m := map[string]string{}
	if text, ok := old[""]; ok {
		m[""] = text
	}
	for i, j := range a.Map {
		if j < 0 {
			continue
		}
		if text, ok := old[t.def.Cols[j].Name]; ok {
			m[a.New.Cols[i].Name] = text
		}
	}
	if a.New.Name != a.Table {
		if err := e.setComments(a.Table, nil); err != nil {
			return err
		}
		if err := e.moveObjectComments(a.Table, a.New.Name, "constraint", "trigger", "rule", "policy"); err != nil {
			return err
		}
	}
	return e.setComments(a.New.Name, m)
}

// pruneComments forgets the comments of objects that are gone and of
// columns that are gone, after DROP and ALTER TABLE, and the owners of
// relations gone (owner.go).
func (e *Engine) pruneComments() error {
	if err := e.pruneOwners(); err != nil {
		return err
	}
	if err := e.pruneColumnGrants(); err != nil {
		return err
	}
	names := make([]string, 0, len(e.comments))
	for name := range e.comments {
		names = append(names, name)
	}
	sort.Strings(names)
	var o *catalogObjects
	for _, name := range names {
		m := e.comments[name]
		if _, _, ok := splitCommentKey(name); ok {
			kept := maps.Clone(m)
			maps.DeleteFunc(kept, func(col, _ string) bool { return e.commentObjectGone(&o, name, col) })
			if len(kept) != len(m) {
				if err := e.setComments(name, kept); err != nil {
					return err
				}
			}
			continue
		}
		if _, ok := e.kindOf(name); !ok && !e.isIndex(name) && e.seqs[name] == nil && e.composites[name] == nil {
			if err := e.setComments(name, nil); err != nil {
				return err
			}
			continue
		}
		cols, ok := e.columnsOf(name)
		if !ok {
			continue // an index
		}
		kept := maps.Clone(m)
		maps.DeleteFunc(kept, func(col, _ string) bool { return col != "" && !slices.Contains(cols, col) })
		if len(kept) != len(m) {
			if err := e.setComments(name, kept); err != nil {
				return err
			}
		}
	}
	return nil
}

// LoadComments restores the comments a store holds, once its relations
// are created; those of objects no longer there are left out.
func (e *Engine) LoadComments(cs []StoredComment) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var o *catalogObjects
	for _, c := range cs {
		if _, _, ok := splitCommentKey(c.Object); ok {
			if e.commentObjectGone(&o, c.Object, c.Column) {
				continue
			}
		} else if _, ok := e.kindOf(c.Object); !ok && !e.isIndex(c.Object) && e.seqs[c.Object] == nil && e.composites[c.Object] == nil {
			continue
		}
		if e.comments == nil {
			e.comments = map[string]map[string]string{}
		}
		if e.comments[c.Object] == nil {
			e.comments[c.Object] = map[string]string{}
		}
		e.comments[c.Object][c.Column] = c.Text
	}
}
