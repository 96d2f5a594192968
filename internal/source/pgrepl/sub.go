package pgrepl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// sub is one subscription: its upstream, its tables, its position in
// the slot and its figures. Its goroutine (run) copies the tables, then
// streams; it is the subscription's only writer of the engine.
type sub struct {
	name, conn, pub, slot string
	changeStream          bool
	d                     *driver
	// tables are the publication's, read upstream by CREATE SUBSCRIPTION,
	// or, for a subscription resumed from the file, by its goroutine's
	// first session.
	tables []*Table
	sess   *engine.Session
	// pos is the position handed to the engine with each commit, for the
	// store to record with it.
	pos engine.SourcePosition
	// ctl orders the statements that start and stop the goroutine.
	ctl sync.Mutex

	// mu guards the figures and the state below; the goroutine holds it
	// only to update them, never across I/O or a call of the engine.
	mu         sync.Mutex
	state      string // copying, streaming, reconnecting, disabled, failed
	received   pglogrepl.LSN
	applied    pglogrepl.LSN // confirmed to the server: every change up to it is committed here
	walEnd     pglogrepl.LSN // the server's WAL end, last heard
	behind     time.Time     // since when the applied position has been behind the server's WAL end; zero when it is not
	rowsCopied int64
	txs        int64
	lastErr    string
	copied     bool // the initial copy is committed; a restart streams from applied

	// first is the replication connection that created the slot, whose
	// exported snapshot the copy reads; the goroutine takes it.
	first    *pgconn.PgConn
	snapshot string
	start    pglogrepl.LSN

	cancel context.CancelFunc
	done   chan struct{}
}

// statusInterval is how often a standby status update is sent while
// changes flow: each update costs the walsender time (it may save the
// slot), and at five a second it halved the stream's rate. idleAfter is
// how long a stream without messages is idle: an update is then sent at
// once, asking for a reply, whose position is confirmed when no
// transaction is open.
const (
	statusInterval = time.Second
	idleAfter      = 100 * time.Millisecond
)

// paceAfter is how many rows of an upstream transaction arrive before the
// rest is read in larger pieces (pacedConn): a small transaction's
// latency is not traded for it.
const paceAfter = 64

// behindAfter is how long ago a transaction must have been committed
// upstream for its stream to be paced from its first row: the stream is
// catching up, and a paced read's wait costs no latency that the queue
// had not.
const behindAfter = 50 * time.Millisecond

// pgTime is a time of PostgreSQL's protocol: microseconds since
// 2000-01-01 UTC.
func pgTime(us int64) time.Time {
	return time.Unix(946684800, 0).Add(time.Duration(us) * time.Microsecond)
}

// copyBatch is how many copied rows go to the engine in one call.
const copyBatch = 4096

// replicationConfig parses conninfo for a replication connection whose
// values come in the text forms deltaview reads.
func replicationConfig(conninfo string, replication bool) (*pgconn.Config, error) {
	cfg, err := pgconn.ParseConfig(conninfo)
	if err != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "invalid connection string: %v", err)
	}
	if replication {
		cfg.RuntimeParams["replication"] = "database"
	}
	cfg.RuntimeParams["DateStyle"] = "ISO, MDY"
	cfg.RuntimeParams["IntervalStyle"] = "postgres"
	cfg.RuntimeParams["TimeZone"] = "UTC"
	cfg.RuntimeParams["extra_float_digits"] = "1"
	cfg.RuntimeParams["application_name"] = "deltaview"
	return cfg, nil
}

func connectReplication(ctx context.Context, conninfo string) (*pgconn.PgConn, error) {
	cfg, err := replicationConfig(conninfo, true)
	if err != nil {
		return nil, err
	}
	cfg.DialFunc = pacedDial(cfg.DialFunc)
	c, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, upstreamErr(err)
	}
	return c, nil
}

// upstreamErr turns an upstream error into one with a SQLSTATE: the
// server's own, or 08006 for a connection that failed.
func upstreamErr(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		out := pgerr.New(pe.Code, "upstream: %s", pe.Message)
		out.Detail = pe.Detail
		if pe.Hint != "" {
			out = out.WithHint("%s", pe.Hint)
		}
		return out
	}
	var de *pgerr.Error
	if errors.As(err, &de) {
		return de
	}
	return pgerr.New(pgerr.ConnectionFailure, "upstream connection: %v", err)
}

// transient reports whether err is worth a reconnection: a lost
// connection, a terminated walsender, a server shutting down or a slot
// still held by a walsender that is going away.
func transient(err error) bool {
	code := pgerr.Code(err)
	switch {
	case strings.HasPrefix(code, "08"), strings.HasPrefix(code, "57"), strings.HasPrefix(code, "53"):
		return true
	case code == "55006": // replication slot is active for another PID
		return true
	}
	return false
}

// dropSlot drops the slot upstream, if it exists. The walsender of a
// stream just stopped may hold it for a moment: that is waited for.
func dropSlot(ctx context.Context, conninfo, slot string) error {
	c, err := connectReplication(ctx, conninfo)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	for i := 0; ; i++ {
		err = pglogrepl.DropReplicationSlot(ctx, c, pgx.Identifier{slot}.Sanitize(), pglogrepl.DropReplicationSlotOptions{Wait: true})
		if err == nil || pgerr.Code(upstreamErr(err)) == pgerr.UndefinedObject {
			return nil
		}
		if i == 50 || pgerr.Code(upstreamErr(err)) != "55006" {
			return upstreamErr(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// createSlot creates the slot, exporting its snapshot; c stays open (and
// idle) until the copy has read the snapshot.
func (s *sub) createSlot(ctx context.Context) error {
	c, err := connectReplication(ctx, s.conn)
	if err != nil {
		return err
	}
	res, err := pglogrepl.CreateReplicationSlot(ctx, c, pgx.Identifier{s.slot}.Sanitize(), "pgoutput",
		pglogrepl.CreateReplicationSlotOptions{SnapshotAction: "EXPORT_SNAPSHOT", Mode: pglogrepl.LogicalReplication})
	if err != nil {
		c.Close(ctx)
		if pgerr.Code(upstreamErr(err)) == pgerr.DuplicateObject {
			return pgerr.New(pgerr.DuplicateObject, "replication slot %q exists upstream", s.slot).
				WithHint("drop it upstream (SELECT pg_drop_replication_slot('%s')), or name another: WITH (slot_name = …)", s.slot)
		}
		return upstreamErr(err)
	}
	s.start, err = pglogrepl.ParseLSN(res.ConsistentPoint)
	if err != nil {
		c.Close(ctx)
		return pgerr.New(pgerr.ProtocolViolation, "slot %q: consistent point %q: %v", s.slot, res.ConsistentPoint, err)
	}
	s.first, s.snapshot = c, res.SnapshotName
	return nil
}

func (s *sub) set(fn func()) {
	s.mu.Lock()
	fn()
	s.mu.Unlock()
}

// run is the subscription's goroutine: the copy, then the stream, again
// after each connection lost, until ctx ends or an error that a new
// connection would not cure.
func (s *sub) run(ctx context.Context) {
	defer close(s.done)
	backoff := 50 * time.Millisecond
	for {
		err := s.session(ctx, &backoff)
		if ctx.Err() != nil {
			s.set(func() { s.state = "disabled" })
			return
		}
		if !transient(err) {
			s.set(func() { s.state, s.lastErr = "failed", err.Error() })
			return
		}
		s.set(func() { s.state, s.lastErr = "reconnecting", err.Error() })
		select {
		case <-ctx.Done():
			s.set(func() { s.state = "disabled" })
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// session copies the tables if that is yet to be done, then streams from
// the last confirmed position until an error.
func (s *sub) session(ctx context.Context, backoff *time.Duration) error {
	if s.tables == nil {
		if err := s.d.readTables(ctx, s); err != nil {
			return err
		}
	}
	c := s.first
	s.first = nil
	s.mu.Lock()
	copied := s.copied
	s.mu.Unlock()
	if c == nil && !copied {
		// The copy's snapshot died with its connection, and nothing of
		// the copy was committed: a new slot gives a new snapshot.
		if err := dropSlot(ctx, s.conn, s.slot); err != nil {
			return err
		}
		if err := s.createSlot(ctx); err != nil {
			return err
		}
		c, s.first = s.first, nil
	}
	if c == nil {
		var err error
		if c, err = connectReplication(ctx, s.conn); err != nil {
			return err
		}
	} else {
		s.set(func() { s.state = "copying" })
		if err := s.copy(ctx); err != nil {
			c.Close(context.Background())
			return err
		}
	}
	defer c.Close(context.Background())
	s.mu.Lock()
	start := s.applied
	s.mu.Unlock()
	err := pglogrepl.StartReplication(ctx, c, pgx.Identifier{s.slot}.Sanitize(), start, pglogrepl.StartReplicationOptions{
		Mode:       pglogrepl.LogicalReplication,
		PluginArgs: []string{"proto_version '1'", "publication_names " + quoteLiteral(s.pub)},
	})
	if err != nil {
		err = upstreamErr(err)
		if pgerr.Code(err) == pgerr.UndefinedObject {
			return pgerr.New(pgerr.UndefinedObject, "replication slot %q of subscription %q no longer exists upstream", s.slot, s.name).
				WithHint("drop the subscription and create it again: it takes a new snapshot")
		}
		return err
	}
	pacedOf(c).block()
	s.set(func() { s.state = "streaming" })
	*backoff = 50 * time.Millisecond
	return s.stream(ctx, c)
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// copy reads every table in the slot's snapshot and commits the rows as
// one transaction here; the stream then starts at the slot's consistent
// point.
func (s *sub) copy(ctx context.Context) error {
	cfg, err := replicationConfig(s.conn, false)
	if err != nil {
		return err
	}
	c, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		return upstreamErr(err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT "+quoteLiteral(s.snapshot)).ReadAll(); err != nil {
		if transient(upstreamErr(err)) {
			return upstreamErr(err)
		}
		// The slot's connection, which holds the snapshot, is gone: the
		// next attempt takes a new slot.
		return pgerr.New(pgerr.ConnectionFailure, "the snapshot of slot %q is gone: %v", s.slot, upstreamErr(err))
	}
	if err := s.sess.Begin(); err != nil {
		return err
	}
	defer s.sess.Rollback()
	batch := make([]engine.SourceChange, 0, copyBatch)
	for _, t := range s.tables {
		cols := make([]string, len(t.Cols))
		for i, col := range t.Cols {
			cols[i] = pgx.Identifier{col.Name}.Sanitize()
		}
		rr := c.ExecParams(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+t.Qualified(), nil, nil, nil, nil)
		for rr.NextRow() {
			vals := rr.Values()
			row := make(value.Row, len(vals))
			for i, v := range vals {
				if v == nil {
					continue
				}
				if row[i], err = value.Parse(string(v), t.Cols[i].Type); err != nil {
					rr.Close()
					pe := *pgerr.Wrap(err)
					pe.Detail = fmt.Sprintf("column %s of table %s", t.Cols[i].Name, t.Qualified())
					return &pe
				}
			}
			batch = append(batch, engine.SourceChange{Table: t.Local, Change: delta.Insert{Row: row}})
			if len(batch) == copyBatch {
				if err := s.sess.ApplySource(batch, nil); err != nil {
					rr.Close()
					return err
				}
				n := int64(len(batch))
				s.set(func() { s.rowsCopied += n })
				batch = batch[:0]
			}
		}
		if _, err := rr.Close(); err != nil {
			return upstreamErr(err)
		}
	}
	// The last batch records the position the stream starts from: a
	// restart after this commit streams, one before it copies again.
	s.pos = engine.SourcePosition{Subscription: s.name, LSN: uint64(s.start)}
	if err := s.sess.ApplySource(batch, &s.pos); err != nil {
		return err
	}
	if err := s.sess.Commit(); err != nil {
		return err
	}
	c.Exec(ctx, "COMMIT").ReadAll()
	n := int64(len(batch))
	s.set(func() {
		s.rowsCopied += n
		s.applied, s.received, s.copied = s.start, s.start, true
	})
	return nil
}

// stream applies the slot's transactions, one deltaview commit each, and
// confirms a position only once the commit that applied it succeeded.
//
// Reads take no context, whose timer and watcher would cost as much as a
// message; the socket's read deadline stands in for it, moved at most
// every idleAfter/2 while messages flow, and a cancelled ctx ends a read
// at once by moving it to now.
func (s *sub) stream(ctx context.Context, c *pgconn.PgConn) error {
	d := newDecoder(s.tables)
	pc := pacedOf(c)
	nc := c.Conn()
	stopWatch := context.AfterFunc(ctx, func() { nc.SetReadDeadline(time.Now()) })
	defer stopWatch()
	// Only this goroutine writes s.applied, s.received and s.walEnd (under
	// s.mu, for status): it reads them without the lock.
	inTx := false
	// A stream stopped (ALTER SUBSCRIPTION … DISABLE, close) confirms what
	// it applied since its last update: the walsender of the next start
	// then neither sends those transactions again nor decodes their WAL.
	defer func() {
		if ctx.Err() != nil {
			nc.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			pglogrepl.SendStandbyStatusUpdate(context.Background(), c, pglogrepl.StandbyStatusUpdate{WALWritePosition: s.applied})
		}
	}()
	var lastStatus, armed time.Time
	quiet := time.Now()  // the last message, or the last idle update
	durable := true      // until the engine says it keeps no store
	var stored time.Time // the last idle position recorded in the store
	due, idle := true, false
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		now := time.Now()
		if due || now.Sub(lastStatus) >= statusInterval {
			err := pglogrepl.SendStandbyStatusUpdate(ctx, c, pglogrepl.StandbyStatusUpdate{WALWritePosition: s.applied, ReplyRequested: idle && !inTx})
			if err != nil {
				return upstreamErr(err)
			}
			lastStatus, due = now, false
		}
		deadline := lastStatus.Add(statusInterval)
		if d := quiet.Add(idleAfter); d.Before(deadline) {
			deadline = d
		}
		if armed.IsZero() || deadline.Before(armed) || deadline.Sub(armed) > idleAfter/2 {
			if err := nc.SetReadDeadline(deadline); err != nil {
				return upstreamErr(err)
			}
			armed = deadline
		}
		msg, err := c.ReceiveMessage(context.Background())
		if err != nil {
			if err := ctx.Err(); err != nil {
				return err
			}
			if pgconn.Timeout(err) {
				armed = time.Time{}
				if now := time.Now(); now.Sub(quiet) >= idleAfter {
					due, idle, quiet = true, true, now
				}
				continue
			}
			return upstreamErr(err)
		}
		quiet = time.Now()
		idle = false
		var data []byte
		switch m := msg.(type) {
		case *pgproto3.ErrorResponse:
			return upstreamErr(pgconn.ErrorResponseToPgError(m))
		case *pgproto3.CopyData:
			data = m.Data
		default:
			continue
		}
		if len(data) == 0 {
			continue
		}
		switch data[0] {
		case pglogrepl.PrimaryKeepaliveMessageByteID:
			k, err := pglogrepl.ParsePrimaryKeepaliveMessage(data[1:])
			if err != nil {
				return pgerr.New(pgerr.ProtocolViolation, "keepalive: %v", err)
			}
			s.set(func() {
				s.walEnd = max(s.walEnd, k.ServerWALEnd)
				s.track()
			})
			if !inTx && k.ServerWALEnd > s.applied && (!durable || time.Since(stored) >= statusInterval) {
				// Nothing received is unapplied: the server's position
				// is safe to confirm, as PostgreSQL's own subscriber
				// does, so that the slot holds no WAL for nothing. A
				// durable store records it first (at most once per
				// statusInterval): the slot must never be ahead of
				// the position a restart resumes from.
				pos := engine.SourcePosition{Subscription: s.name, LSN: uint64(k.ServerWALEnd)}
				var err error
				if durable, err = s.sess.RecordSource(pos); err != nil {
					return err
				}
				stored = time.Now()
				s.set(func() {
					s.applied = k.ServerWALEnd
					s.received = max(s.received, k.ServerWALEnd)
					s.track()
				})
			}
			if k.ReplyRequested {
				due = true
			}
		case pglogrepl.XLogDataByteID:
			x, err := pglogrepl.ParseXLogData(data[1:])
			if err != nil {
				return pgerr.New(pgerr.ProtocolViolation, "XLogData: %v", err)
			}
			if err := s.message(ctx, d, pc, &inTx, x); err != nil {
				return err
			}
		}
	}
}

// message handles one pgoutput message; the stream's figures are
// updated with each transaction, not each row.
func (s *sub) message(ctx context.Context, d *decoder, pc *pacedConn, inTx *bool, x pglogrepl.XLogData) error {
	data := x.WALData
	if len(data) == 0 {
		return nil
	}
	w := wire{b: data[1:]}
	var err error
	switch data[0] {
	case 'B': // Begin: the final LSN, the commit time, the xid
		final := w.lsn()
		committed := pgTime(int64(w.uint64()))
		if w.bad {
			return truncated("Begin")
		}
		d.behind = time.Since(committed) >= behindAfter
		*inTx = true
		d.tx, d.rows = d.tx[:0], 0
		// A transaction applied already (the server resends from its
		// confirmed position) is not decoded: its Relation messages may
		// describe columns as they were before.
		d.skip = final < s.applied
		s.set(func() {
			s.received = max(s.received, x.WALStart)
			s.walEnd = max(s.walEnd, x.ServerWALEnd)
			s.track()
		})
		pc.setPace(d.behind)
	case 'C': // Commit: flags, the commit LSN, the end LSN, the commit time
		w.byte()
		w.lsn()
		end := w.lsn()
		if w.bad {
			return truncated("Commit")
		}
		err = s.commit(d, end)
		*inTx = false
		clear(d.tx)
	case 'I', 'U', 'D':
		id := w.uint32()
		if w.bad {
			return truncated(string(data[:1]))
		}
		if err = s.use(ctx, d, id); err != nil || d.skip {
			return err
		}
		switch data[0] {
		case 'I':
			err = d.insert(id, &w)
		case 'U':
			err = d.update(id, &w)
		default:
			err = d.delete(id, &w)
		}
		if err == nil && d.rows == paceAfter {
			pc.setPace(true)
		}
	default:
		m, perr := pglogrepl.Parse(data)
		if perr != nil {
			return pgerr.New(pgerr.ProtocolViolation, "pgoutput: %v", perr)
		}
		switch m := m.(type) {
		case *pglogrepl.RelationMessage:
			d.announced[m.RelationID] = m
		case *pglogrepl.TruncateMessage:
			for _, id := range m.RelationIDs {
				if err = s.use(ctx, d, id); err != nil {
					return err
				}
			}
			if !d.skip {
				err = d.truncate(m)
			}
		}
	}
	return err
}

// commit applies one upstream transaction as one deltaview commit. A
// transaction at or before the confirmed position was applied already
// (the server resends from its last confirmed position): it is skipped.
func (s *sub) commit(d *decoder, end pglogrepl.LSN) error {
	s.mu.Lock()
	applied := s.applied
	s.mu.Unlock()
	if end <= applied {
		return nil
	}
	if len(d.tx) > 0 {
		s.pos = engine.SourcePosition{Subscription: s.name, LSN: uint64(end)}
		if err := s.sess.ApplySource(d.tx, &s.pos); err != nil {
			pe := *pgerr.Wrap(err)
			where := fmt.Sprintf("the upstream transaction that ends at %s", end)
			if pe.Detail != "" {
				pe.Detail += "\n" + where
			} else {
				pe.Detail = where
			}
			return &pe
		}
	}
	s.set(func() {
		s.applied = end
		s.received = max(s.received, end)
		s.track()
		s.txs++
	})
	return nil
}

// track notes since when the applied position has been behind the
// server's WAL end, for lag_seconds. s.mu is held.
func (s *sub) track() {
	switch {
	case s.applied >= s.walEnd:
		s.behind = time.Time{}
	case s.behind.IsZero():
		s.behind = time.Now()
	}
}

// status is the subscription's row of deltaview_subscriptions.
func (s *sub) status() value.Row {
	s.mu.Lock()
	defer s.mu.Unlock()
	lagBytes := int64(0)
	if s.walEnd > s.applied {
		lagBytes = int64(s.walEnd - s.applied)
	}
	lagSec := 0.0
	if lagBytes > 0 && !s.behind.IsZero() {
		lagSec = time.Since(s.behind).Seconds()
	}
	errv := value.Null
	if s.lastErr != "" {
		errv = value.NewText(value.Text, s.lastErr)
	}
	return value.Row{
		value.NewText(value.Text, s.name), value.NewText(value.Text, s.state), value.NewText(value.Text, s.slot),
		value.NewText(value.Text, s.received.String()), value.NewText(value.Text, s.applied.String()),
		value.NewInt(value.Int8, lagBytes), value.NewFloat(value.Float8, lagSec),
		value.NewInt(value.Int8, s.rowsCopied), value.NewInt(value.Int8, s.txs), errv,
	}
}
