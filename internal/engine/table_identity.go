package engine

import "github.com/deltaview/deltaview/internal/value"

// A running statement holds the tables it writes by identity, as
// PostgreSQL's executor holds a relation by its oid: a function the
// statement calls (a trigger, a function in its select list or its
// RETURNING) may rename the table (ALTER TABLE … RENAME TO, SET SCHEMA,
// RENAME COLUMN), and the statement's later rows go to the same table
// under its new name. ALTER TABLE builds the renamed table anew
// (alterRows) and links the table it replaced to it (table.succ); every
// row's write goes to the table its target is now (current), and a
// statement that holds a *table across calls of user code, with the
// firing of its triggers and its ON CONFLICT arbiters, takes the table it
// is now once the catalog has changed (follow). The changes that
// would alter its rows or shape stay refused while a statement uses it
// (routine_inuse.go), so the table found has the rows and columns the
// statement's plan expects.

// live returns the table that t is now: t itself while the catalog keys
// it, otherwise the first of the tables built in its place that the
// catalog keys. A rename undone (an EXCEPTION handler, ROLLBACK TO) puts
// t back, so the chain is walked from t each time.
func (e *Engine) live(t *table) *table {
	for x := t; x != nil; x = x.succ {
		if e.tables[x.name] == x {
			return x
		}
	}
	return t
}

// current is live(t) for the writes of a row (insertRow, updateRow,
// deleteRow), which every statement makes through them: a statement that
// does not follow its table itself still writes to the table it is now.
// A table no ALTER TABLE replaced costs a nil check.
func (e *Engine) current(t *table) *table {
	if t.succ == nil {
		return t
	}
	return e.live(t)
}

// follow sets *t to the table it is now, and the firing of its triggers
// (tf, nil without) with it, when the catalog changed since *gen; it
// reports whether *t changed. A statement calls it where user code may
// have run since it last wrote to *t: a trigger, a function of its
// RETURNING list.
func (e *Engine) follow(gen *uint64, t **table, tf *trigFire) bool {
	if e.catalogGen == *gen {
		return false
	}
	*gen = e.catalogGen
	nt := e.live(*t)
	if nt == *t {
		return false
	}
	*t = nt
	tf.follow(nt)
	return true
}

// follow makes the firing of a table's triggers fire those of t, the
// table it was renamed to, under t's name and columns (TG_TABLE_NAME is
// the new name, as in PostgreSQL); a nil f has none.
func (f *trigFire) follow(t *table) {
	if f == nil {
		return
	}
	f.t, f.rel, f.cols, f.rowType = t, t.name, t.cols, value.Type{}
	if t.trig != nil {
		f.list = t.trig
	}
}
