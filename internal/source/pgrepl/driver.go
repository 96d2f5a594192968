// Package pgrepl reads a PostgreSQL publication through logical
// replication (pgoutput) into deltaview's tables: CREATE SUBSCRIPTION
// creates a replication slot exporting a snapshot, copies each table of
// the publication in that snapshot, then streams the slot from its
// consistent point, one deltaview commit per upstream COMMIT.
//
// Each message kind becomes a change of the explicit model: INSERT an
// insertion; UPDATE with its old row (REPLICA IDENTITY FULL) a complete
// update; UPDATE without it (DEFAULT) a partial update whose old values
// are unknown, columns of unchanged TOASTed values unknown too; DELETE by
// key a true partial deletion; TRUNCATE the deletion of every row.
//
// The package registers itself with the engine when linked; the
// subscriptions' goroutines are its own, stopped by DROP SUBSCRIPTION,
// ALTER SUBSCRIPTION … DISABLE and the engine's Close.
package pgrepl

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

func init() {
	engine.RegisterSubscriptions(func(e *engine.Engine) engine.Subscriptions {
		return &driver{e: e, subs: map[string]*sub{}}
	})
}

// driver holds an engine's subscriptions.
type driver struct {
	e      *engine.Engine
	mu     sync.Mutex // guards subs and closed
	subs   map[string]*sub
	closed bool
}

// connectTimeout bounds each connection attempt of a statement.
const connectTimeout = 30 * time.Second

// Create implements engine.Subscriptions: it reads the publication's
// catalog, creates or checks the local tables, creates the slot and
// starts the subscription's goroutine, which copies and then streams.
func (d *driver) Create(cs *sql.CreateSubscription) error {
	if cs.Disabled {
		return pgerr.New(pgerr.FeatureNotSupported, "a subscription created disabled is not supported").
			WithHint("create it enabled, then ALTER SUBSCRIPTION %s DISABLE", cs.Name)
	}
	s := &sub{name: cs.Name, conn: cs.Conn, pub: cs.Publication, slot: cs.Slot, changeStream: cs.ChangeStream, d: d, state: "creating"}
	d.mu.Lock()
	switch {
	case d.closed:
		d.mu.Unlock()
		return pgerr.New(pgerr.ObjectNotInPrereqState, "the database is closed")
	case d.subs[cs.Name] != nil:
		d.mu.Unlock()
		return pgerr.New(pgerr.DuplicateObject, "subscription %q already exists", cs.Name)
	}
	for _, o := range d.subs {
		if o.slot == cs.Slot {
			d.mu.Unlock()
			return pgerr.New(pgerr.DuplicateObject, "subscription %q uses replication slot %q already", o.name, cs.Slot)
		}
	}
	d.subs[cs.Name] = s // reserved; removed again on failure
	d.mu.Unlock()
	if err := d.create(s, cs); err != nil {
		d.mu.Lock()
		delete(d.subs, cs.Name)
		d.mu.Unlock()
		return err
	}
	return nil
}

func (d *driver) create(s *sub, cs *sql.CreateSubscription) error {
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if err := d.readTables(ctx, s); err != nil {
		return err
	}
	if err := s.createSlot(ctx); err != nil {
		return err
	}
	// The file records the subscription before its copy commits: the copy
	// records its position there.
	if err := d.e.SaveSubscription(s.stored(true)); err != nil {
		s.first.Close(context.Background())
		s.first = nil
		dropSlot(ctx, s.conn, s.slot) //nolint:errcheck // the error to report is the store's
		return err
	}
	s.sess = d.e.NewSession()
	d.start(s)
	return nil
}

// readTables reads the publication's tables upstream into s.tables, and
// creates the local tables that do not exist or checks those that do.
func (d *driver) readTables(ctx context.Context, s *sub) error {
	cfg, err := replicationConfig(s.conn, false)
	if err != nil {
		return err
	}
	pcfg, err := pgx.ParseConfig("")
	if err != nil {
		return err
	}
	pcfg.Config = *cfg
	conn, err := pgx.ConnectConfig(ctx, pcfg)
	if err != nil {
		return upstreamErr(err)
	}
	tables, err := readCatalog(ctx, conn, s.pub)
	conn.Close(ctx)
	if err != nil {
		return err
	}
	if len(tables) == 0 {
		return pgerr.New(pgerr.ObjectNotInPrereqState, "publication %q has no tables", s.pub)
	}
	if err := d.localTables(tables, s.changeStream); err != nil {
		return err
	}
	s.tables = tables
	return nil
}

// stored is the subscription as the store records it.
func (s *sub) stored(enabled bool) engine.StoredSubscription {
	return engine.StoredSubscription{Name: s.name, Conn: s.conn, Publication: s.pub, Slot: s.slot, ChangeStream: s.changeStream, Enabled: enabled}
}

// Resume implements engine.Subscriptions: a subscription kept in the
// file starts again from its stored position, or, when its copy was never
// committed, from a new slot's snapshot. Its goroutine reads the
// publication's tables first: the database opens whether or not the
// upstream is reachable.
func (d *driver) Resume(st engine.StoredSubscription) error {
	lsn := pglogrepl.LSN(st.LSN)
	s := &sub{name: st.Name, conn: st.Conn, pub: st.Publication, slot: st.Slot, changeStream: st.ChangeStream, d: d,
		state: "starting", copied: st.Copied, applied: lsn, received: lsn}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		return pgerr.New(pgerr.ObjectNotInPrereqState, "the database is closed")
	case d.subs[st.Name] != nil:
		return pgerr.New(pgerr.DuplicateObject, "subscription %q already exists", st.Name)
	}
	s.sess = d.e.NewSession()
	d.subs[st.Name] = s
	if !st.Enabled {
		s.state = "disabled"
		return nil
	}
	d.start(s)
	return nil
}

// localTables creates the tables that do not exist here and checks the
// columns of those that do.
func (d *driver) localTables(tables []*Table, changeStream bool) error {
	sess := d.e.NewSession()
	defer sess.Close()
	for _, t := range tables {
		cols, err := relationColumns(sess, t.Local)
		if err != nil {
			return err
		}
		if cols == nil {
			if err := exec(sess, createTableSQL(t, changeStream)); err != nil {
				return err
			}
			continue
		}
		if len(cols) != len(t.Cols) {
			return pgerr.New(pgerr.DatatypeMismatch, "table %s has %d columns here and %d upstream", t.Local, len(cols), len(t.Cols))
		}
		for i, c := range cols {
			u := t.Cols[i]
			if c.Name != u.Name || c.Type != u.Type {
				return pgerr.New(pgerr.DatatypeMismatch, "column %d of table %s is %s %s here and %s %s upstream", i+1, t.Local, c.Name, c.Type, u.Name, u.Type)
			}
		}
	}
	return nil
}

// relationColumns returns the columns of the local table name; nil when
// there is none.
func relationColumns(sess *engine.Session, name string) ([]Column, error) {
	st, err := sql.Parse("SELECT * FROM " + pgx.Identifier{name}.Sanitize() + " WHERE false")
	if err != nil {
		return nil, err
	}
	res, err := sess.Exec(st)
	if pgerr.Code(err) == pgerr.UndefinedTable {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Column
	for _, c := range res[0].Columns {
		out = append(out, Column{Name: c.Name, Type: c.Type})
	}
	return out, nil
}

func exec(sess *engine.Session, text string) error {
	st, err := sql.Parse(text)
	if err != nil {
		return err
	}
	_, err = sess.Exec(st)
	return err
}

// start runs s's goroutine.
func (d *driver) start(s *sub) {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan struct{})
	go s.run(ctx)
}

// stop ends s's goroutine and waits for it.
func stop(s *sub) {
	if s.cancel != nil {
		s.cancel()
		<-s.done
		s.cancel = nil
		if s.first != nil {
			s.first.Close(context.Background())
			s.first = nil
		}
	}
}

func (d *driver) get(name string) (*sub, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s, ok := d.subs[name]
	if !ok || s.sess == nil {
		return nil, pgerr.New(pgerr.UndefinedObject, "subscription %q does not exist", name)
	}
	return s, nil
}

// Alter implements engine.Subscriptions: DISABLE stops the goroutine and
// keeps the slot; ENABLE resumes from the last confirmed position.
func (d *driver) Alter(as *sql.AlterSubscription) error {
	s, err := d.get(as.Name)
	if err != nil {
		return err
	}
	// Stopping waits for the goroutine, which may wait for the engine,
	// whose readers of deltaview_subscriptions take d.mu: s.ctl, not d.mu,
	// orders the statements on one subscription.
	s.ctl.Lock()
	defer s.ctl.Unlock()
	if err := d.e.SaveSubscription(s.stored(as.Enable)); err != nil {
		return err
	}
	if !as.Enable {
		stop(s)
		s.set(func() { s.state = "disabled" })
		return nil
	}
	if s.cancel != nil {
		select {
		case <-s.done:
			s.cancel = nil // failed: a new start clears the state
		default:
			return nil // running
		}
	}
	s.set(func() { s.state, s.lastErr = "starting", "" })
	d.start(s)
	return nil
}

// Drop implements engine.Subscriptions: the goroutine ends, then the
// slot is dropped upstream. The local tables stay.
func (d *driver) Drop(ds *sql.DropSubscription) error {
	s, err := d.get(ds.Name)
	if err != nil {
		if ds.IfExists {
			return nil
		}
		return err
	}
	if err := d.e.DropStoredSubscription(ds.Name); err != nil {
		return err
	}
	d.mu.Lock()
	delete(d.subs, ds.Name)
	d.mu.Unlock()
	s.ctl.Lock()
	stop(s)
	s.ctl.Unlock()
	s.sess.Close()
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if err := dropSlot(ctx, s.conn, s.slot); err != nil {
		return pgerr.New(pgerr.Code(err), "subscription %q is dropped, but its replication slot %q could not be dropped upstream: %v", s.name, s.slot, err).
			WithHint("drop it there: SELECT pg_drop_replication_slot('%s')", s.slot)
	}
	return nil
}

// Status implements engine.Subscriptions.
func (d *driver) Status() []value.Row {
	d.mu.Lock()
	subs := make([]*sub, 0, len(d.subs))
	for _, s := range d.subs {
		if s.sess != nil {
			subs = append(subs, s)
		}
	}
	d.mu.Unlock()
	sort.Slice(subs, func(i, j int) bool { return strings.Compare(subs[i].name, subs[j].name) < 0 })
	out := make([]value.Row, len(subs))
	for i, s := range subs {
		out[i] = s.status()
	}
	return out
}

// Close implements engine.Subscriptions.
func (d *driver) Close() {
	d.mu.Lock()
	d.closed = true
	subs := make([]*sub, 0, len(d.subs))
	for _, s := range d.subs {
		subs = append(subs, s)
	}
	d.mu.Unlock()
	for _, s := range subs {
		s.ctl.Lock()
		stop(s)
		s.ctl.Unlock()
	}
}
