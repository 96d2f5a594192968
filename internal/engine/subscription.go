package engine

import (
	"sync"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Subscriptions (CREATE SUBSCRIPTION) read another database's changes on
// goroutines that a driver owns: the engine starts none and does no I/O.
// A driver package registers itself (RegisterSubscriptions); the engine
// hands it the subscription statements, outside its locks, since a driver
// connects upstream and runs statements of its own on the engine, and
// reads its figures for the system view deltaview_subscriptions. A driver
// applies each upstream transaction through ApplySource.

// Subscriptions runs an engine's subscriptions.
type Subscriptions interface {
	Create(s *sql.CreateSubscription) error
	Alter(s *sql.AlterSubscription) error
	Drop(s *sql.DropSubscription) error
	// Resume starts again a subscription a store kept, from its stored
	// position; a disabled one is only registered.
	Resume(s StoredSubscription) error
	// Status returns one row of deltaview_subscriptions per subscription.
	// It is called under the engine's lock: it must not call the engine.
	Status() []value.Row
	// Close stops every subscription's goroutines, keeping their slots.
	Close()
}

var (
	subsMu      sync.Mutex
	newSubsFunc func(e *Engine) Subscriptions
)

// RegisterSubscriptions makes CREATE SUBSCRIPTION available to every
// engine: newSubs returns an engine's driver, on its first subscription
// statement.
func RegisterSubscriptions(newSubs func(e *Engine) Subscriptions) {
	subsMu.Lock()
	newSubsFunc = newSubs
	subsMu.Unlock()
}

// subscriptions returns e's driver, made on first use; nil when no driver
// is registered.
func (e *Engine) subscriptions() Subscriptions {
	e.subsDriverMu.Lock()
	defer e.subsDriverMu.Unlock()
	if e.subsDriver == nil && !e.closed {
		subsMu.Lock()
		f := newSubsFunc
		subsMu.Unlock()
		if f != nil {
			e.subsDriver = f(e)
		}
	}
	return e.subsDriver
}

// Close stops the engine's subscriptions and foreign tables, and waits
// for the views' commits that the last commit left running (behind.go),
// so that nothing of the engine runs once it returns. The engine stays
// usable; a subscription statement after Close fails.
func (e *Engine) Close() {
	e.subsDriverMu.Lock()
	d, f := e.subsDriver, e.foreignDriver
	e.closed = true
	e.subsDriverMu.Unlock()
	if d != nil {
		d.Close()
	}
	if f != nil {
		f.Close()
	}
	e.mu.Lock()
	e.mu.Unlock()
}

// subscriptionStmt runs a subscription statement, outside a transaction
// block, as PostgreSQL does.
func (s *Session) subscriptionStmt(b sql.Bound) (Result, error) {
	var verb string
	switch b.(type) {
	case *sql.CreateSubscription:
		verb = "CREATE SUBSCRIPTION"
	case *sql.AlterSubscription:
		verb = "ALTER SUBSCRIPTION"
	default:
		verb = "DROP SUBSCRIPTION"
	}
	if s.block {
		return Result{}, pgerr.New(pgerr.ActiveTransaction, "%s cannot run inside a transaction block", verb)
	}
	d := s.e.subscriptions()
	if d == nil {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%s needs the PostgreSQL source, which this program does not link", verb).
			WithHint(`import _ "github.com/deltaview/deltaview/source/postgres"`)
	}
	var err error
	switch b := b.(type) {
	case *sql.CreateSubscription:
		err = d.Create(b)
	case *sql.AlterSubscription:
		err = d.Alter(b)
	case *sql.DropSubscription:
		err = d.Drop(b)
	}
	return Result{Tag: verb}, err
}

// subscriptionRows are deltaview_subscriptions' rows.
func (e *Engine) subscriptionRows() []value.Row {
	e.subsDriverMu.Lock()
	d := e.subsDriver
	e.subsDriverMu.Unlock()
	if d == nil {
		return nil
	}
	return d.Status()
}

// SourceChange is one change of an upstream transaction to a table: a
// change of the explicit model; or, when From is set, a change of key
// (an UPDATE that moved a row from key From), whose Change is a partial
// update when some columns kept their old values; or, with Truncate, the
// deletion of every row.
type SourceChange struct {
	Table    string
	Change   delta.Change
	From     value.Row
	Truncate bool
}

// ApplySource applies changes from an outside database, in order, within
// the open transaction (or as one of their own, committed at the end).
// Tables with a primary key take every kind of change, completed from
// their stored rows; a table without one takes complete changes, which
// name a row by all its values (one of equal rows, as DELETE of a row
// found by ctid would). When one change fails, nothing of the call is
// applied. A non-nil at is the subscription's position once the changes
// are applied: the store records it with the commit.
func (s *Session) ApplySource(changes []SourceChange, at *SourcePosition) error {
	return s.typedChange("", 0, func(e *Engine) error {
		e.replica = true // no FOREIGN KEY check, as on a PostgreSQL subscriber
		var t *table
		for i := range changes {
			c := &changes[i]
			if t == nil || t.name != c.Table {
				var ok bool
				if t, ok = e.tables[c.Table]; !ok {
					return pgerr.New(pgerr.UndefinedTable, "table %q does not exist", c.Table)
				}
				if err := s.allowed(c.Table, sql.PrivInsert|sql.PrivUpdate|sql.PrivDelete); err != nil {
					return err
				}
			}
			if err := e.applySource(t, c); err != nil {
				return err
			}
		}
		if at != nil {
			e.tx.source = at
		}
		return nil
	})
}

// RecordSource records at, a position a subscription reached without a
// change to apply (the upstream wrote only other tables' WAL), in the
// store, without a commit: the logical time stays. It returns false, and
// does nothing, when the engine keeps no store.
func (s *Session) RecordSource(at SourcePosition) (bool, error) {
	e := s.e
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.store == nil {
		return false, nil
	}
	if err := e.store.Write(&Commit{TS: e.ts, Source: &at}); err != nil {
		e.store.Abort()
		return true, err
	}
	return true, e.store.Commit()
}

func (e *Engine) applySource(t *table, c *SourceChange) error {
	switch {
	case c.Truncate:
		if !t.keepsRows() {
			return pgerr.New(pgerr.FeatureNotSupported, "TRUNCATE of change-stream table %q, which keeps no rows to delete", t.name).
				WithHint("subscribe without change_stream to take TRUNCATE")
		}
		var ids []uint64
		t.scan(func(id uint64, _ value.Row) bool { ids = append(ids, id); return true })
		for _, id := range ids {
			e.deleteRow(t, id)
		}
		return nil
	case c.From != nil:
		return e.moveRow(t, c)
	case t.def.PrimaryKey == nil:
		return e.applyByRow(t, c.Change)
	}
	return e.applyChange(t, c.Change)
}

// moveRow applies an update that changed a row's key: the stored row
// under the old key gives the columns the update left unknown.
func (e *Engine) moveRow(t *table, c *SourceChange) error {
	s, err := t.deltaSchema()
	if err != nil {
		return err
	}
	if !t.keepsRows() {
		// Without the old row, only a move whose new row is complete can
		// be told: the old key goes, the new row comes.
		ins, ok := c.Change.(delta.Insert)
		if !ok {
			return pgerr.New(pgerr.FeatureNotSupported, "a change of key in change-stream table %q that leaves columns unknown; the table keeps no rows to take them from", t.name).
				WithHint("set REPLICA IDENTITY FULL upstream, or subscribe without change_stream")
		}
		if err := e.applyChange(t, delta.TruePartialDelete{KeyVals: c.From}); err != nil {
			return err
		}
		return e.applyChange(t, ins)
	}
	probe, _ := s.Pad(c.From)
	id, cur, ok := t.byKey(t.uniques[0], probe)
	if !ok {
		return pgerr.New(delta.CodeNoRow, "update of %s key %s: no such row", t.name, c.From).
			WithHint("the event says the row exists; the table does not hold it")
	}
	var row value.Row
	switch n := c.Change.(type) {
	case delta.PartialUpdate:
		row = make(value.Row, len(n.Row))
		for i := range row {
			if n.Unknown.Has(i) {
				row[i] = cur[i]
			} else {
				row[i] = n.Row[i]
			}
		}
	case delta.Insert:
		row = n.Row
	default:
		return pgerr.New(pgerr.Internal, "a change of key given as %s", c.Change.Kind())
	}
	e.deleteRow(t, id)
	_, err = e.insertRow(t, row)
	return err
}

// applyByRow applies a complete change to a table without a primary key.
func (e *Engine) applyByRow(t *table, c delta.Change) error {
	var old value.Row
	switch c := c.(type) {
	case delta.Insert:
		_, err := e.insertRow(t, c.Row)
		return err
	case delta.Delete:
		old = c.Row
	case delta.Update:
		old = c.Old
	default:
		return pgerr.New(pgerr.FeatureNotSupported, "table %q has no primary key; a %s names no row", t.name, c.Kind())
	}
	id, cur, ok := e.find(t, old)
	if !ok {
		return pgerr.New(delta.CodeNoRow, "%s of %s: no row %s", c.Kind(), t.name, old)
	}
	if u, ok := c.(delta.Update); ok {
		_, err := e.updateRow(t, id, cur, u.New)
		return err
	}
	e.deleteRow(t, id)
	return nil
}
