package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Change-stream tables (CREATE TABLE … WITH (change_stream = true)) receive
// change events — the seven kinds of delta.Change — instead of DML. Such a
// table keeps no rows of its own unless a view needs them: a view
// maintained by partial propagation keeps only what its operators need,
// and a view maintained by normalisation makes the table *stored* (a keyed
// copy, which completes every partial event by lookup, exactly as an
// ordinary table does). Ordinary tables take change events too: they are
// completed from the stored rows and applied as ordinary changes. Events
// arrive as batches from the source decoders (COPY, copy.go) and from the
// typed API, all through applyBatch.

// streamState is what a change-stream table knows of itself.
type streamState struct {
	// stored: the table keeps its rows (a view over it is normalised);
	// events are completed by lookup and applied as row changes.
	stored bool
	// fed: the table, not stored, has received events; no view can be
	// built over it any more (nothing holds its rows).
	fed    bool
	schema *delta.Schema
}

// keepsRows reports whether t's rows are stored: every ordinary table, and
// change-stream tables that a normalised view reads.
func (t *table) keepsRows() bool { return !t.def.ChangeStream || t.stream.stored }

// deltaSchema returns t as a keyed relation: its columns and primary key.
func (t *table) deltaSchema() (*delta.Schema, error) {
	if t.stream.schema != nil {
		return t.stream.schema, nil
	}
	if t.def.PrimaryKey == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "table %q has no primary key; change events and partial propagation name rows by key", t.name).
			WithHint("declare a PRIMARY KEY")
	}
	names := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i] = c.Name
	}
	s, err := delta.NewSchema(t.name, names, t.def.PrimaryKey)
	if err != nil {
		return nil, err
	}
	t.stream.schema = s
	return s, nil
}

func changeStreamDML(t *table, verb string) error {
	return pgerr.New(pgerr.WrongObjectType, "cannot %s change-stream table %q", verb, t.name).
		WithHint("feed it change events: COPY %s FROM 'file' WITH (FORMAT debezium) or (FORMAT upsert), or Tx.Apply in the Go API", t.name)
}

// ApplyChanges applies changes of the explicit model to a table, in order,
// within the open transaction (or as one of their own). On a table that
// keeps its rows each change is completed from the stored row and applied
// as an ordinary change; an event that contradicts the stored rows (a
// change of a key that does not exist, other than an upsert or a safe
// deletion; an insertion of one that does; an old row that differs from
// the stored one) is an error naming the table and the key. On a
// change-stream table that keeps no rows the changes go to the views as
// they are, which check them against the state they keep.
func (s *Session) ApplyChanges(tableName string, changes delta.Batch) error {
	return s.typedChange(tableName, sql.PrivInsert|sql.PrivUpdate|sql.PrivDelete, func(e *Engine) error {
		t, ok := e.tables[tableName]
		if !ok {
			return pgerr.New(pgerr.UndefinedTable, "table %q does not exist", tableName)
		}
		_, err := e.applyBatch(t, changes, nil)
		return err
	})
}

// ApplyValues is ApplyChanges for changes given through the Go API: each
// value is first converted to its column's type as an assignment converts
// it (a string is read with the type's input function, a number checked
// against the type's range), and a row or key of the wrong arity is an
// error (42601). The values of a partial update's unknown columns are
// ignored. When one change fails, nothing of the batch is applied.
func (s *Session) ApplyValues(tableName string, changes delta.Batch) error {
	return s.typedChange(tableName, sql.PrivInsert|sql.PrivUpdate|sql.PrivDelete, func(e *Engine) error {
		t, ok := e.tables[tableName]
		if !ok {
			return pgerr.New(pgerr.UndefinedTable, "table %q does not exist", tableName)
		}
		s, err := t.deltaSchema()
		if err != nil {
			return err
		}
		typed := make(delta.Batch, len(changes))
		for i, c := range changes {
			if typed[i], err = assignChange(t, s, c); err != nil {
				return err
			}
		}
		_, err = e.applyBatch(t, typed, nil)
		return err
	})
}

// assignChange converts c's values to t's column types.
func assignChange(t *table, s *delta.Schema, c delta.Change) (delta.Change, error) {
	assign := func(v value.Value, col int) (value.Value, error) {
		a, err := assignValue(v, t.cols[col].Type)
		if err != nil {
			pe := *pgerr.Wrap(err)
			pe.Detail = fmt.Sprintf("column %s of table %s", t.cols[col].Name, t.name)
			return value.Null, &pe
		}
		return a, nil
	}
	row := func(r value.Row, unknown delta.Cols) (value.Row, error) {
		if len(r) != len(t.cols) {
			return nil, pgerr.New(pgerr.SyntaxError, "table %q has %d columns, the row of a %s has %d", t.name, len(t.cols), c.Kind(), len(r))
		}
		out := make(value.Row, len(r))
		for i, v := range r {
			if unknown.Has(i) {
				continue // NULL: an unknown column holds no value
			}
			var err error
			if out[i], err = assign(v, i); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	key := func(k value.Row) (value.Row, error) {
		if len(k) != len(s.Key) {
			return nil, pgerr.New(pgerr.SyntaxError, "the primary key of table %q has %d columns, the key of a %s has %d", t.name, len(s.Key), c.Kind(), len(k))
		}
		out := make(value.Row, len(k))
		for i, v := range k {
			var err error
			if out[i], err = assign(v, s.Key[i]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	var err error
	switch c := c.(type) {
	case delta.Insert:
		c.Row, err = row(c.Row, nil)
		return c, err
	case delta.Update:
		if c.Old, err = row(c.Old, nil); err != nil {
			return nil, err
		}
		c.New, err = row(c.New, nil)
		return c, err
	case delta.PartialUpdate:
		c.Row, err = row(c.Row, c.Unknown)
		return c, err
	case delta.Upsert:
		c.Row, err = row(c.Row, nil)
		return c, err
	case delta.Delete:
		c.Row, err = row(c.Row, nil)
		return c, err
	case delta.TruePartialDelete:
		c.KeyVals, err = key(c.KeyVals)
		return c, err
	case delta.SafePartialDelete:
		c.KeyVals, err = key(c.KeyVals)
		return c, err
	}
	return nil, pgerr.New(pgerr.InvalidParameter, "unknown change type %T", c)
}

// applyBatch applies changes, or plain rows (inserted as INSERT inserts
// them), to t in the open transaction, in order: the one way in of typed
// changes, from every source and from the typed API alike. On error it
// returns the position of the failing change or row; the caller undoes the
// transaction's changes since its mark.
func (e *Engine) applyBatch(t *table, changes delta.Batch, rows []value.Row) (int, error) {
	if len(rows) > 0 && t.def.ChangeStream {
		return 0, changeStreamDML(t, "insert rows into")
	}
	for i, r := range rows {
		if _, err := e.insertRow(t, r); err != nil {
			return i, err
		}
	}
	for i, c := range changes {
		if err := e.applyChange(t, c); err != nil {
			return i, err
		}
	}
	return 0, nil
}

// applyChange applies one change event to t in the open transaction.
func (e *Engine) applyChange(t *table, c delta.Change) error {
	s, err := t.deltaSchema()
	if err != nil {
		return err
	}
	if err := s.Validate(c); err != nil {
		return err
	}
	if pu, ok := c.(delta.PartialUpdate); ok && t.def.CompleteRows && !pu.Unknown.Empty() {
		return pgerr.New(pgerr.InvalidParameter, "change-stream table %q declares complete_rows, but a partial update of key %s leaves column %q unknown",
			t.name, zset.FormatRow(c.Key(s)), t.cols[pu.Unknown.Slice()[0]].Name).
			WithHint("send every column of the new row, or recreate the table without complete_rows")
	}
	for _, r := range newRows(c) {
		if err := t.check(r); err != nil {
			return err
		}
	}
	if !t.keepsRows() {
		t.stream.fed = true
		e.tx.log = append(e.tx.log, change{t: t, ev: c})
		return nil
	}
	key := c.Key(s)
	probe, _ := s.Pad(key)
	id, cur, exists := t.byKey(t.uniques[0], probe)
	missing := func() error {
		return pgerr.New(delta.CodeNoRow, "%s of %s key %s: no such row", c.Kind(), t.name, key).
			WithHint("the event says the row exists; the table does not hold it")
	}
	differs := func(old value.Row) error {
		if value.CompareRows(old, cur) == 0 {
			return nil
		}
		return pgerr.New("22000", "%s of %s key %s: the old row %s is not the stored row %s", c.Kind(), t.name, key, old, cur)
	}
	// MERGE's rules (delta.MergeRules) decide; a stored table also holds
	// the old row an update or a deletion states to the stored one.
	n, code := delta.Merge(c, cur, exists)
	switch code {
	case delta.CodeNoRow:
		return missing()
	case pgerr.UniqueViolation:
		return pgerr.New(pgerr.UniqueViolation, "insert into %s key %s: the key exists already", t.name, key)
	}
	switch c := c.(type) {
	case delta.Update:
		err = differs(c.Old)
	case delta.Delete:
		err = differs(c.Row)
	case delta.PartialUpdate:
		err = t.check(n)
	}
	if err != nil {
		return err
	}
	switch {
	case n != nil && exists:
		_, err = e.updateRow(t, id, cur, n)
	case n != nil:
		_, err = e.insertRow(t, n)
	case exists:
		e.deleteRow(t, id)
	}
	return err
}

// newRows returns the complete new rows a change states.
func newRows(c delta.Change) []value.Row {
	switch c := c.(type) {
	case delta.Insert:
		return []value.Row{c.Row}
	case delta.Update:
		return []value.Row{c.New}
	case delta.Upsert:
		return []value.Row{c.Row}
	}
	return nil
}

// tableChanges turns a stored table's consolidated Z-set delta into complete
// changes by key: a retraction and an assertion of one key are an update,
// an assertion alone an insertion, a retraction alone a deletion.
func tableChanges(s *delta.Schema, z zset.ZSet) delta.Batch {
	type pair struct{ old, new value.Row }
	idx := map[string]int{}
	var pairs []pair
	for _, en := range z {
		k := string(value.AppendRowKey(nil, s.KeyOf(en.Row)))
		i, ok := idx[k]
		if !ok {
			i = len(pairs)
			idx[k] = i
			pairs = append(pairs, pair{})
		}
		if en.W < 0 {
			pairs[i].old = en.Row
		} else {
			pairs[i].new = en.Row
		}
	}
	out := make(delta.Batch, 0, len(pairs))
	for _, p := range pairs {
		switch {
		case p.old != nil && p.new != nil:
			out = append(out, delta.Update{Old: p.old, New: p.new})
		case p.new != nil:
			out = append(out, delta.Insert{Row: p.new})
		default:
			out = append(out, delta.Delete{Row: p.old})
		}
	}
	return out
}

// describeTable says how a table receives changes and what it keeps, for
// EXPLAIN of the views over it.
func describeTable(t *table) string {
	switch {
	case !t.def.ChangeStream:
		return fmt.Sprintf("table %s (stored, %d rows)", t.name, t.rows.Len())
	case t.stream.stored:
		return fmt.Sprintf("change-stream table %s (normalised: a keyed copy of %d rows, %d bytes)", t.name, t.rows.Len(), t.bytes)
	}
	return fmt.Sprintf("change-stream table %s (keeps no rows)", t.name)
}
