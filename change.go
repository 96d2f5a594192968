package deltaview

import (
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// ChangeEvent is one change to a row of a table with a primary key, of one
// of the seven kinds that change capture delivers: Insert, Update,
// PartialUpdate, Upsert, Delete, TruePartialDelete and SafePartialDelete
// (docs/partial-deltas.md). Tx.Apply applies them. Rows hold every column
// of the table in order; keys hold the primary key's columns in key order.
// Values are converted to the column types as INSERT assigns them.
//
// On an ordinary table (and on a change-stream table that a normalised
// view makes keep its rows) each event is completed from the stored row
// and checked against it: a partial update takes the unknown columns'
// stored values, and an event that contradicts the stored rows fails
// at once. On a change-stream table that keeps no rows the events go to
// the views as they are; a contradiction is found where a view keeps the
// state that shows it, and fails the transaction at Commit.
type ChangeEvent interface {
	toDelta(unknown func(string) (int, error)) (delta.Change, error)
}

// Insert is a new row: its key did not exist (else 23505).
type Insert struct{ Row []Value }

// Update replaces a row: the key held Old (else P0002, or 22000 when the
// stored row differs), now New, which keeps the key.
type Update struct{ Old, New []Value }

// PartialUpdate is a row's new values when its old row is unknown: the key
// existed (else P0002). The columns named in Unknown did not change and
// were not sent (a minimal row image, Debezium's unavailable-value
// placeholder); their values in Row are ignored. Key columns are never
// unknown.
type PartialUpdate struct {
	Row     []Value
	Unknown []string
}

// Upsert is a whole new row whose key may or may not have existed.
type Upsert struct{ Row []Value }

// Delete removes a row: the key held Row (else P0002, or 22000 when the
// stored row differs).
type Delete struct{ Row []Value }

// TruePartialDelete removes the row with Key, which existed (else P0002).
type TruePartialDelete struct{ Key []Value }

// SafePartialDelete removes the row with Key if there is one.
type SafePartialDelete struct{ Key []Value }

func (c Insert) toDelta(func(string) (int, error)) (delta.Change, error) {
	return delta.Insert{Row: c.Row}, nil
}

func (c Update) toDelta(func(string) (int, error)) (delta.Change, error) {
	return delta.Update{Old: c.Old, New: c.New}, nil
}

func (c PartialUpdate) toDelta(col func(string) (int, error)) (delta.Change, error) {
	var u delta.Cols
	for _, name := range c.Unknown {
		i, err := col(name)
		if err != nil {
			return nil, err
		}
		u = u.With(i)
	}
	return delta.PartialUpdate{Row: c.Row, Unknown: u}, nil
}

func (c Upsert) toDelta(func(string) (int, error)) (delta.Change, error) {
	return delta.Upsert{Row: c.Row}, nil
}

func (c Delete) toDelta(func(string) (int, error)) (delta.Change, error) {
	return delta.Delete{Row: c.Row}, nil
}

func (c TruePartialDelete) toDelta(func(string) (int, error)) (delta.Change, error) {
	return delta.TruePartialDelete{KeyVals: c.Key}, nil
}

func (c SafePartialDelete) toDelta(func(string) (int, error)) (delta.Change, error) {
	return delta.SafePartialDelete{KeyVals: c.Key}, nil
}

// Apply applies change events to a table, in order, in the transaction:
// on an ordinary table and on a change-stream table (CREATE TABLE … WITH
// (change_stream = true)) alike. The table must have a primary key. If an
// event fails (an unknown table or column, a row or key of the wrong
// length, a value of the wrong type, a change that contradicts the stored
// rows), none of the events is applied, the error says why, and the
// transaction goes on as before the call.
func (tx *Tx) Apply(table string, events ...ChangeEvent) error {
	if tx.done {
		return ErrTxDone
	}
	col := func(name string) (int, error) {
		cols, ok := tx.db.e.Columns(table)
		if !ok {
			return 0, pgerr.New(pgerr.UndefinedTable, "table %q does not exist", table)
		}
		for i, c := range cols {
			if c == name {
				return i, nil
			}
		}
		return 0, pgerr.New(pgerr.UndefinedColumn, "column %q of table %q does not exist", name, table)
	}
	batch := make(delta.Batch, len(events))
	for i, ev := range events {
		if ev == nil {
			return pgerr.New(pgerr.InvalidParameter, "event %d of %d is nil", i+1, len(events))
		}
		c, err := ev.toDelta(col)
		if err != nil {
			return err
		}
		batch[i] = c
	}
	return tx.s.ApplyValues(table, batch)
}
