package engine

import (
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Typed changes, for callers that apply changes without SQL. They join the
// session's open transaction (BEGIN, or the one Begin opened) and are
// maintained at Commit like any statement's changes.

// Begin opens an explicit transaction.
func (s *Session) Begin() error {
	if s.closed {
		return errClosed
	}
	if s.block {
		return pgerr.New(pgerr.ActiveTransaction, "there is already a transaction in progress")
	}
	s.block = true
	return nil
}

// Commit commits the open transaction.
func (s *Session) Commit() error {
	if s.failed {
		s.Rollback()
		return pgerr.New(pgerr.InFailedTransaction, "the transaction failed and was rolled back")
	}
	_, err := s.endTx(true)
	return err
}

// Rollback abandons the open transaction.
func (s *Session) Rollback() { s.endTx(false) }

// Insert adds a row to table, cast to the column types and checked against
// the constraints. On error nothing of the row is stored.
func (s *Session) Insert(tableName string, row value.Row) error {
	return s.typedChange(tableName, sql.PrivInsert, func(e *Engine) error {
		t, row, err := e.typedRow(tableName, row)
		if err != nil {
			return err
		}
		if t.trig != nil {
			return e.typedFiring(t, sql.TriggerInsert, 0, nil, row)
		}
		_, err = e.insertRow(t, row)
		return err
	})
}

// Delete removes one row equal to row from table; it is an error if there
// is none.
func (s *Session) Delete(tableName string, row value.Row) error {
	return s.typedChange(tableName, sql.PrivDelete|sql.PrivSelect, func(e *Engine) error {
		t, row, err := e.typedRow(tableName, row)
		if err != nil {
			return err
		}
		id, cur, ok := e.find(t, row)
		if !ok {
			return pgerr.New("02000", "no row %s in table %q", failingRow(row), tableName)
		}
		if t.trig != nil {
			return e.typedFiring(t, sql.TriggerDelete, id, cur, nil)
		}
		e.deleteRow(t, id)
		return nil
	})
}

// Update replaces one row equal to old by new; it is an error if there is
// none.
func (s *Session) Update(tableName string, old, new value.Row) error {
	return s.typedChange(tableName, sql.PrivUpdate|sql.PrivSelect, func(e *Engine) error {
		// The old row is only compared: it is cast into scratch space.
		t, old, err := e.typedRowInto(e.scratch[:0], tableName, old)
		if err != nil {
			return err
		}
		e.scratch = old[:0]
		_, new, err := e.typedRow(tableName, new)
		if err != nil {
			return err
		}
		id, cur, ok := e.find(t, old)
		if !ok {
			return pgerr.New("02000", "no row %s in table %q", failingRow(old), tableName)
		}
		if t.trig != nil {
			return e.typedFiring(t, sql.TriggerUpdate, id, cur, new)
		}
		_, err = e.updateRow(t, id, cur, new)
		return err
	})
}

// Replace replaces the row whose primary key equals row's by row; it is
// an error if there is none, or if the table has no primary key. In a
// table whose key is one integer column and its only unique constraint,
// the row is kept in the transaction and written with the others at
// commit, or before the transaction runs anything else (pending.go).
func (s *Session) Replace(tableName string, row value.Row) error {
	return s.typedChangeKeep(tableName, sql.PrivUpdate, true, func(e *Engine) error {
		if len(e.tx.pending) > 0 && !e.eachRow {
			// A later replacement of a batch made a call a row: cast
			// into the kept row's image as ReplaceRows casts, not into
			// scratch and then copied. The first, and so a change alone,
			// keeps the row replaceTyped casts.
			if t := e.tables[tableName]; t != nil && castsOnce(t) {
				return e.replaceRowsKept(tableName, t, [][]value.Value{row})
			}
		}
		return e.replaceTyped(tableName, row)
	})
}

// replaceTyped is Replace's change, made by the writer. The caller's row
// does not escape (the typed API's variadic values stay on its stack):
// what is kept is the cast copy.
func (e *Engine) replaceTyped(tableName string, row value.Row) error {
	t, typed, err := e.typedRow(tableName, row)
	if err != nil {
		return err
	}
	if len(t.uniques) == 0 || !t.uniques[0].primary {
		return pgerr.New(pgerr.InvalidColumnRef, "table %q has no primary key to replace a row by", tableName)
	}
	if t.buffers() {
		return e.replacePending(t, typed)
	}
	e.flushPending()
	id, old, ok := t.byKey(t.uniques[0], typed)
	if !ok {
		return pgerr.New("02000", "no row with the key of %s in table %q", failingRow(typed), tableName)
	}
	if t.trig != nil {
		return e.typedFiring(t, sql.TriggerUpdate, id, old, typed)
	}
	return e.replaceRow(t, id, old, typed)
}

// typedChange runs fn, a change of the typed API, as the writer under the
// write lock: within the open transaction, where a failure undoes fn's
// changes alone, or as a transaction of its own. The transaction's kept
// replacements are written first.
func (s *Session) typedChange(table string, priv sql.Privilege, fn func(e *Engine) error) error {
	return s.typedChangeKeep(table, priv, false, fn)
}

// typedChangeKeep is typedChange; with keep, a change to a table that
// keeps its replacements (table.buffers), the kept replacements are left
// kept.
func (s *Session) typedChangeKeep(table string, priv sql.Privilege, keep bool, fn func(e *Engine) error) error {
	switch {
	case s.closed:
		return errClosed
	case s.failed:
		return pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	e := s.e
	if err := e.haltErr(); err != nil {
		return err
	}
	held := heldNone
	defer s.onPanic(&held)
	if err := s.acquireSlot(); err != nil {
		return err
	}
	e.mu.lockChanges()
	held = heldExclusive
	if s.block && e.tx == nil {
		e.tx = e.newTxn(true)
	}
	if err := s.allowedTyped(table, priv); err != nil {
		e.mu.Unlock()
		held = heldNone
		if !s.block {
			s.releaseSlot()
		}
		return err
	}
	tx := e.begin()
	if t := e.tables[table]; !keep || t == nil || !t.buffers() {
		// Written before the mark: a change that fails takes back its
		// own writes, not the kept replacements of other tables.
		e.flushPending()
	}
	mark := len(tx.log)
	e.firer = s // the session runs the triggers the change fires
	err := fn(e)
	e.firer = nil
	if err == nil && e.fkeys != nil && !e.replica {
		err = e.enforceForeignKeys(mark)
	}
	if err == nil && e.deferKeys {
		err = e.checkKeys(mark, nil)
	}
	e.replica = false
	if err != nil {
		e.undoTo(mark)
		if !tx.explicit {
			e.tx = nil
		}
	} else if !tx.explicit {
		err = e.commit()
	}
	e.takeNotices() // the typed API returns no notices
	e.mu.Unlock()
	held = heldNone
	if !s.block {
		s.releaseSlot()
	}
	return err
}

// typedRow casts row to the table's column types (typedRowInto) into a
// row of its own, which the table may keep. A transaction's first change,
// perhaps its only one, casts into a new row; the later ones, a batch's,
// into scratch, copied into a row the collector need not scan (keptRow):
// a batch's rows are most of what its collections mark again, and a
// change alone is spared the copy.
func (e *Engine) typedRow(name string, row value.Row) (*table, value.Row, error) {
	if len(e.tx.pending) == 0 && len(e.tx.log) == 0 {
		return e.typedRowInto(nil, name, row)
	}
	t, out, err := e.typedRowInto(e.castRow[:0], name, row)
	if err != nil {
		return nil, nil, err
	}
	e.castRow = out[:0]
	return t, keptRow(out), nil
}

// typedRowInto is typedRow casting into dst's memory when it has room.
func (e *Engine) typedRowInto(dst value.Row, name string, row value.Row) (*table, value.Row, error) {
	t, ok := e.tables[name]
	if !ok {
		return nil, nil, pgerr.New(pgerr.UndefinedTable, "table %q does not exist", name)
	}
	if t.def.ChangeStream {
		return nil, nil, changeStreamDML(t, "change")
	}
	if len(row) != len(t.cols) {
		return nil, nil, pgerr.New(pgerr.SyntaxError, "table %q has %d columns, the row has %d", name, len(t.cols), len(row))
	}
	out := dst[:0]
	if cap(out) < len(row) {
		out = make(value.Row, 0, len(row))
	}
	for i := range row {
		v, ct := row[i], t.cols[i].Type
		// An integer that fits an integer column, a typed change's
		// common value, is taken as is: assignValue's general path costs
		// more than the rest of the change's casts.
		if v.Kind().IsInteger() && fitsInt(ct.Kind, v.Int()) {
			out = append(out, value.NewInt(ct.Kind, v.Int()))
			continue
		}
		c, err := assignValue(v, ct)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, c)
	}
	return t, out, nil
}

// fitsInt reports whether n is in the range of the integer kind k; false
// when k is not an integer kind.
func fitsInt(k value.Kind, n int64) bool {
	switch k {
	case value.Int8:
		return true
	case value.Int4:
		return n >= math.MinInt32 && n <= math.MaxInt32
	case value.Int2:
		return n >= math.MinInt16 && n <= math.MaxInt16
	}
	return false
}

// assignValue converts a value given through the API (a typed change's,
// a prepared statement's argument) to type t as an assignment converts
// it: a string too long for varchar(n) or char(n) (22001), or a bit
// string that does not fit bit(n) or bit varying(n) (22026, 22001), is an
// error, never cut; a number is checked against an integer type's range or
// rounded to numeric(p,s); a string is read with t's input function; any
// value has a text form. Text that PostgreSQL would refuse (invalid UTF-8,
// NUL) is 22021: this is where the API's values enter.
func assignValue(v value.Value, t value.Type) (value.Value, error) {
	if v.Kind().IsString() {
		if err := value.CheckText(v.Str()); err != nil {
			return value.Null, err
		}
		if v.Kind() == value.Text && t.Kind == value.Text && t.Mod < 0 {
			return v, nil // text into text: nothing to convert
		}
	}
	if !t.Kind.IsString() && !t.Kind.IsBits() || t.Mod < 0 || v.IsNull() {
		return value.Cast(v, t, true)
	}
	r, err := value.Cast(v, value.Type{Kind: t.Kind, Mod: -1}, true)
	if err != nil {
		return value.Null, err
	}
	return value.Coerce(r, t, false)
}

// find returns the id of a row equal to row, and the stored row: by
// primary key when the table has one, otherwise by a scan.
func (e *Engine) find(t *table, row value.Row) (uint64, value.Row, bool) {
	if len(t.uniques) > 0 && t.uniques[0].primary {
		id, cur, ok := t.byKey(t.uniques[0], row)
		if !ok || value.CompareRows(cur, row) != 0 {
			return 0, nil, false
		}
		return id, cur, true
	}
	var found uint64
	var cur value.Row
	t.scan(func(id uint64, r value.Row) bool {
		if value.CompareRows(r, row) == 0 {
			found, cur = id, r
			return false
		}
		return true
	})
	return found, cur, cur != nil
}
