package sink

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// follower keeps a view in a target table for a foreign table: it keeps
// the view's committed deltas that the target does not hold yet, in
// order, and applies them on its own goroutine, one target transaction
// per step, each recording the step in the progress table. The engine's
// commits never wait for the target: a target that is down or slow makes
// the queue grow (deltaview_sinks shows it), not the commits fail.
//
// Steps that queued up while one was applied go together in the next
// target transaction. After a lost connection it reconnects with a backoff and reads the
// progress row, which tells whether the last COMMIT happened: the steps
// the target holds are skipped, so none is applied twice or missed.
type follower struct {
	name, server, view, target string
	declared                   []engine.StoredColumn
	epoch                      string
	connect                    func(ctx context.Context) (conn, error)
	step                       func() uint64 // the engine's last commit
	// resume: created again from the store; the first load is skipped
	// when the target's progress row shows it holds the view as it is.
	resume bool

	mu       sync.Mutex // guards the fields below
	wake     chan struct{}
	v        engine.SinkView
	rows     []value.Row // the view's rows to load; nil once loaded
	needLoad bool
	pending  *item  // prepared in the engine's open commit
	queue    []item // committed, not yet known to be in the target
	state    string
	applied  uint64
	txns     int64
	retries  int64
	lastErr  string
	dropped  bool // detached by the engine: nothing more is applied
	closing  bool // the database closes: apply the queue, mark, return

	detach func()
	cancel context.CancelFunc
	done   chan struct{}
}

type item struct {
	step    uint64
	changes delta.Batch
	at      time.Time
}

// conn is a connection to a target table, made by a server.
type conn interface {
	setup(v engine.SinkView) error
	Open(v engine.SinkView, rows []value.Row) error
	Prepare(step uint64, changes delta.Batch) error
	Commit() error
	progress(ctx context.Context) (progress, error)
	// mark records step in the progress row, the table unchanged.
	mark(ctx context.Context, step uint64) error
	// bind makes ctx the parent of the connection's calls: its end ends
	// the call under way.
	bind(ctx context.Context)
	// call returns the context of one call: bound by the server's
	// timeout.
	call() (context.Context, func())
	// lost says whether err means the connection is gone (the target
	// restarted, the backend was terminated, the network failed).
	lost(err error) bool
	close()
}

var _ engine.Sink = (*follower)(nil)

// Open implements engine.Sink, under the engine's lock: it checks the
// declared columns and keeps the rows to load, doing no I/O.
func (f *follower) Open(v engine.SinkView, rows []value.Row) error {
	if len(f.declared) > 0 {
		if len(f.declared) != len(v.Columns) {
			return pgerr.New(pgerr.DatatypeMismatch, "foreign table %s declares %d columns; materialized view %s has %d", f.name, len(f.declared), v.Name, len(v.Columns))
		}
		for i, c := range v.Columns {
			d := f.declared[i]
			if d.Name != c.Name || d.Type != c.Type.String() {
				return pgerr.New(pgerr.DatatypeMismatch, "column %d of foreign table %s is %s %s; of materialized view %s, %s %s", i+1, f.name, d.Name, d.Type, v.Name, c.Name, c.Type)
			}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.v, f.rows, f.needLoad = v, rows, true
	f.signal()
	return nil
}

// Prepare implements engine.Sink: it keeps the step's changes until the
// engine commits.
func (f *follower) Prepare(step uint64, changes delta.Batch) error {
	f.mu.Lock()
	f.pending = &item{step: step, changes: slices.Clone(changes)}
	f.mu.Unlock()
	return nil
}

// Commit implements engine.Sink: the step joins the queue.
func (f *follower) Commit() error {
	f.mu.Lock()
	if f.pending != nil {
		f.pending.at = time.Now()
		f.queue = append(f.queue, *f.pending)
		f.pending = nil
		f.signal()
	}
	f.mu.Unlock()
	return nil
}

// Abort implements engine.Sink.
func (f *follower) Abort() {
	f.mu.Lock()
	f.pending = nil
	f.mu.Unlock()
}

// Detached implements engine.Detachable: the target is left as it is,
// since the queue may hold a step the engine did not keep.
func (f *follower) Detached(reason string) {
	f.mu.Lock()
	f.dropped = true
	f.lastErr = reason
	f.mu.Unlock()
	f.signal()
}

func (f *follower) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *follower) set(state string, err error) {
	f.mu.Lock()
	f.state = state
	if err != nil {
		f.lastErr = err.Error()
	}
	f.mu.Unlock()
}

// Backoff between attempts to reach the target: from minBackoff,
// doubling up to maxBackoff.
const (
	minBackoff = 50 * time.Millisecond
	maxBackoff = 5 * time.Second
)

// maxBatch bounds the steps applied in one target transaction.
const maxBatch = 256

// run applies the queue to the target until ctx ends or a step fails
// for a reason other than a lost connection. c is the first connection.
func (f *follower) run(ctx context.Context, c conn) {
	defer close(f.done)
	defer func() {
		if c != nil {
			c.close()
		}
	}()
	backoff := minBackoff
	verified := false // the progress row was read on this connection
	retry := func(err error) bool {
		if c != nil {
			c.close()
			c = nil
		}
		verified = false
		f.mu.Lock()
		f.retries++
		f.mu.Unlock()
		f.set("reconnecting", err)
		select {
		case <-ctx.Done():
			return false
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, maxBackoff)
		return true
	}
	for {
		f.mu.Lock()
		for !f.dropped && !f.needLoad && len(f.queue) == 0 {
			if f.closing {
				f.mu.Unlock()
				if c != nil && verified {
					f.mark(c)
				}
				return
			}
			f.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-f.wake:
			}
			f.mu.Lock()
		}
		if f.dropped {
			f.state = "failed"
			f.mu.Unlock()
			return
		}
		load, v, rows := f.needLoad, f.v, f.rows
		f.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		if c == nil {
			var err error
			if c, err = f.connect(ctx); err == nil {
				err = c.setup(v)
			}
			if err != nil {
				if !retry(err) {
					return
				}
				continue
			}
		}
		if load && f.resume {
			f.resume = false
			p, err := readProgress(c)
			if err != nil {
				if c.lost(err) && retry(err) {
					f.resume = true
					continue
				}
				f.set("failed", err)
				return
			}
			// The target holds the view as at the last commit when its
			// progress row is ours at that very step: the engine's time
			// continues across a restart, from the file's last commit. A
			// view that reads the clock has moved on meanwhile.
			if p.ok && p.epoch == f.epoch && p.step == v.Step && !v.Temporal {
				f.mu.Lock()
				f.rows, f.needLoad, f.applied, f.state = nil, false, v.Step, "streaming"
				f.mu.Unlock()
				verified, backoff = true, minBackoff
				continue
			}
		}
		if load {
			if err := c.Open(v, rows); err != nil {
				if c.lost(err) && retry(err) {
					continue
				}
				f.set("failed", err)
				return
			}
			f.mu.Lock()
			f.rows, f.needLoad, f.applied, f.state = nil, false, v.Step, "streaming"
			f.mu.Unlock()
			verified, backoff = true, minBackoff
			continue
		}
		if !verified {
			p, err := readProgress(c)
			if err != nil {
				if c.lost(err) && retry(err) {
					continue
				}
				f.set("failed", err)
				return
			}
			if !p.ok || p.epoch != f.epoch {
				f.set("failed", pgerr.New(pgerr.ObjectNotInPrereqState, "target table %s of server %s: its row in deltaview_progress is gone or was written by another foreign table", f.target, f.server))
				return
			}
			f.mu.Lock()
			f.applied = p.step
			f.mu.Unlock()
			verified = true
		}
		// The steps queued go in one target transaction (at most
		// maxBatch of them): a target that fell behind catches up
		// without a commit per step.
		f.mu.Lock()
		for len(f.queue) > 0 && f.queue[0].step <= f.applied {
			f.queue[0] = item{}
			f.queue = f.queue[1:]
		}
		batch := f.queue[:min(len(f.queue), maxBatch)]
		f.mu.Unlock()
		if len(batch) == 0 {
			continue
		}
		var err error
		for _, it := range batch {
			if err = c.Prepare(it.step, it.changes); err != nil {
				break
			}
		}
		if err == nil {
			err = c.Commit()
		}
		if err != nil {
			if c.lost(err) && retry(err) {
				continue
			}
			f.set("failed", err)
			return
		}
		backoff = minBackoff
		f.mu.Lock()
		f.applied = batch[len(batch)-1].step
		clear(f.queue[:len(batch)])
		f.queue = f.queue[len(batch):]
		f.txns++
		f.state = "streaming"
		f.mu.Unlock()
	}
}

// readProgress reads c's progress row, waiting at most the timeout.
func readProgress(c conn) (progress, error) {
	ctx, cancel := c.call()
	defer cancel()
	return c.progress(ctx)
}

// status is the foreign table's row of deltaview_sinks.
func (f *follower) status() value.Row {
	f.mu.Lock()
	defer f.mu.Unlock()
	lag := 0.0
	if len(f.queue) > 0 {
		lag = time.Since(f.queue[0].at).Seconds()
	}
	state := f.state
	if f.dropped {
		state = "failed"
	}
	last := value.Null
	if f.lastErr != "" {
		last = value.NewText(value.Text, f.lastErr)
	}
	t := func(s string) value.Value { return value.NewText(value.Text, s) }
	i8 := func(n int64) value.Value { return value.NewInt(value.Int8, n) }
	return value.Row{t(f.name), t(f.server), t(f.view), t(f.target), t(state), i8(int64(f.applied)),
		i8(int64(len(f.queue))), value.NewFloat(value.Float8, lag), i8(f.txns), i8(f.retries), last}
}

// mark records in the target's progress row, the queue being applied,
// that the target holds the view as at the engine's last commit: the
// commits since the last step applied left the view as it was. The
// engine's time is read before the queue, so that a commit in between
// leaves a step in the queue and no mark is made.
func (f *follower) mark(c conn) {
	ts := f.step()
	f.mu.Lock()
	idle := len(f.queue) == 0 && f.pending == nil && !f.needLoad && !f.dropped && ts >= f.applied
	f.mu.Unlock()
	if !idle || ts == 0 {
		return
	}
	cctx, cancel := c.call()
	defer cancel()
	if err := c.mark(cctx, ts); err == nil {
		f.mu.Lock()
		f.applied = ts
		f.mu.Unlock()
	}
}

// finish lets f apply its queue and mark the target, until deadline,
// then stops its goroutine.
func (f *follower) finish(deadline <-chan time.Time) {
	if f.cancel == nil {
		return
	}
	f.mu.Lock()
	f.closing = true
	f.mu.Unlock()
	f.signal()
	select {
	case <-f.done:
	case <-deadline:
	}
	f.stop()
}

// stop ends f's goroutine and waits for it.
func (f *follower) stop() {
	if f.cancel != nil {
		f.cancel()
		<-f.done
		f.cancel = nil
	}
}

// pgerrCode returns err's SQLSTATE: the target server's, or the one a
// pgerr.Error carries; XX000 for neither.
func pgerrCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return pgerr.Code(err)
}

// lostCode says whether a SQLSTATE means the connection is gone: class
// 08 (connection exception) or 57P0x (the server shut down or the
// backend was terminated).
func lostCode(code string) bool {
	return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "57P0")
}
