package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
	"github.com/deltaview/deltaview/internal/sql"
)

// A change stream is a response of server-sent events:
//
//	event: snapshot                     the view's rows at logical time 7, as changes
//	id: 7
//	data: {"ts":7,"columns":[{"name":"a","type":"integer"}],"changes":[{"diff":1,"row":[1]}]}
//
//	event: delta                        one commit's changes to the view
//	id: 9
//	data: {"ts":9,"changes":[{"diff":-1,"row":[1]},{"diff":1,"row":[2]}]}
//
//	event: error                        the last event: why the stream ends
//	data: {"code":"53400","message":"…"}
//
// A client that reconnects with Last-Event-ID (as EventSource does) gets
// "event: resume" (data {"after": id, "columns": …}) and the deltas after
// that id, when the server still holds them all; otherwise a fresh
// snapshot whose data says "reset": true and why.

// frame is one rendered event of a view's stream, at logical time ts.
type frame struct {
	ts   uint64
	data []byte
}

// hub keeps one view's subscription, the ring of its most recent deltas
// (rendered as events) and the view's streams, to which it fans each delta
// out. It never waits for a stream: one whose queue is full is dropped.
type hub struct {
	s     *Server
	name  string
	cols  []byte        // the view's columns as JSON
	ready chan struct{} // closed once base is set or the hub has ended
	once  sync.Once

	mu      sync.Mutex
	cancel  func() // ends the subscription; nil until it is made
	started bool
	base    uint64  // the ring holds every delta with TS > base
	ring    []frame // circular: n frames from head
	head, n int
	bytes   int
	clients map[*client]struct{}
	idle    int   // counts the times the hub lost its last stream
	err     error // why the hub ended; nil while it lives
}

// client is one stream's queue of events.
type client struct {
	ch    chan []byte
	after uint64 // the stream gets the deltas with TS > after
	once  sync.Once
	gone  chan struct{} // closed when the stream must end, for err
	err   error
}

// send queues an event, or ends the stream when its queue is full. It
// never blocks.
func (c *client) send(b []byte) bool {
	select {
	case c.ch <- b:
		return true
	default:
		c.fail(pgerr.New("53400", "the change stream fell %d events behind the commits and was dropped", cap(c.ch)).
			WithHint("reconnect with Last-Event-ID to resume, or read faster"))
		return false
	}
}

func (c *client) fail(err error) {
	c.once.Do(func() {
		c.err = err
		close(c.gone)
	})
}

var errShutdown = pgerr.New(pgerr.AdminShutdown, "the server is shutting down")

// hubFor returns the view's hub, making it (and its subscription) if
// there is none or the one there was has just retired.
func (s *Server) hubFor(ctx context.Context, name string) (*hub, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, errShutdown
		}
		h := s.hubs[name]
		if h == nil {
			h = &hub{s: s, name: name, ready: make(chan struct{}), clients: map[*client]struct{}{}}
			s.hubs[name] = h
			s.mu.Unlock()
			h.start()
			h.mu.Lock()
			h.retireLater() // if no stream ever joins
			h.mu.Unlock()
		} else {
			s.mu.Unlock()
		}
		select {
		case <-h.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		h.mu.Lock()
		err := h.err
		h.mu.Unlock()
		if err != errRetired {
			if err != nil {
				return nil, err
			}
			return h, nil
		}
	}
}

// start reads the view's columns and subscribes to it.
func (h *hub) start() {
	cols, err := viewColumns(h.s.db, h.name)
	if err != nil {
		h.end(err)
		return
	}
	h.cols = cols
	q := max(deltaview.DefaultQueue, h.s.o.Ring)
	cancel, err := h.s.db.SubscribeWith(h.name, deltaview.SubscribeOptions{Snapshot: true, Queue: q}, h.deliver)
	if err != nil {
		h.end(err)
		return
	}
	h.mu.Lock()
	h.cancel = cancel
	ended := h.err != nil
	h.mu.Unlock()
	if ended {
		cancel()
	}
}

// viewColumns returns a materialized view's columns as JSON.
func viewColumns(db *deltaview.DB, name string) ([]byte, error) {
	st, err := sql.Parse(`SELECT * FROM "` + strings.ReplaceAll(name, `"`, `""`) + `" LIMIT 0`)
	if err != nil {
		return nil, err
	}
	sess := dbaccess.NewSession(db)
	defer sess.Close()
	res, err := sess.Exec(st)
	if err != nil {
		e := *pgerr.Wrap(err)
		e.Position = 0 // a position in a query the client did not write
		return nil, &e
	}
	if len(res) != 1 {
		return nil, pgerr.New(pgerr.Internal, "reading the columns of %q gave %d results", name, len(res))
	}
	return appendColumns(nil, res[0].Columns), nil
}

// deliver takes the subscription's calls: the snapshot, whose TS starts
// the ring, then each delta, which it renders once, keeps and fans out.
func (h *hub) deliver(d deltaview.Delta) {
	if d.Err != nil {
		h.end(d.Err)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.started {
		h.started, h.base = true, d.TS
		h.once.Do(func() { close(h.ready) })
		return
	}
	f := frame{ts: d.TS, data: renderEvent(nil, "delta", d.TS, nil, d.Changes, "")}
	h.keep(f)
	for c := range h.clients {
		if f.ts > c.after && !c.send(f.data) {
			delete(h.clients, c)
			h.s.noteLagged()
		}
	}
}

// keep adds f to the ring, dropping the oldest frames beyond its bounds.
func (h *hub) keep(f frame) {
	if h.ring == nil {
		h.ring = make([]frame, h.s.o.Ring)
	}
	for h.n > 0 && (h.n == len(h.ring) || h.bytes+len(f.data) > h.s.o.RingBytes) {
		old := h.ring[h.head]
		h.ring[h.head] = frame{}
		h.head = (h.head + 1) % len(h.ring)
		h.n--
		h.bytes -= len(old.data)
		h.base = old.ts
	}
	h.ring[(h.head+h.n)%len(h.ring)] = f
	h.n++
	h.bytes += len(f.data)
}

// end ends the hub for err (errShutdown when nil): its streams end with
// an error event, and the server forgets it.
func (h *hub) end(err error) {
	if err == nil {
		err = errShutdown
	} else if errors.Is(err, deltaview.ErrLagged) {
		err = pgerr.New("53400", "the server's subscription to %q fell behind the commits", h.name).
			WithHint("reconnect to start over from a snapshot")
	}
	h.mu.Lock()
	if h.err == nil {
		h.err = err
		for c := range h.clients {
			c.fail(err)
		}
		clear(h.clients)
	}
	h.mu.Unlock()
	h.once.Do(func() { close(h.ready) })
	h.s.mu.Lock()
	if h.s.hubs[h.name] == h {
		delete(h.s.hubs, h.name)
	}
	h.s.mu.Unlock()
}

// close ends the hub and its subscription.
func (h *hub) close(err error) {
	h.end(err)
	h.mu.Lock()
	cancel := h.cancel
	h.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// errNotHeld says the ring no longer holds every delta after a time.
var errNotHeld = errors.New("not held")

// errRetired ends a hub that had no stream for Options.Linger: a request
// that finds it so asks for a new one.
var errRetired = errors.New("retired")

// join adds a stream that has the view's rows as of logical time after:
// it queues the ring's deltas after it, then gets each new one.
func (h *hub) join(after uint64, queue int) (*client, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return nil, h.err
	}
	if after < h.base {
		return nil, errNotHeld
	}
	i := 0
	for i < h.n && h.ring[(h.head+i)%len(h.ring)].ts <= after {
		i++
	}
	c := &client{ch: make(chan []byte, queue+h.n-i), after: after, gone: make(chan struct{})}
	for ; i < h.n; i++ {
		c.ch <- h.ring[(h.head+i)%len(h.ring)].data
	}
	h.clients[c] = struct{}{}
	h.idle++
	return c, nil
}

// leave removes a stream; the hub ends Options.Linger after its last
// stream left, unless another joined meanwhile.
func (h *hub) leave(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.clients, c)
	if len(h.clients) == 0 && h.err == nil {
		h.retireLater()
	}
}

// retireLater ends the hub after Options.Linger if no stream joins it
// meanwhile. h.mu is held.
func (h *hub) retireLater() {
	h.idle++
	idle := h.idle
	time.AfterFunc(h.s.o.Linger, func() {
		h.mu.Lock()
		retire := h.idle == idle && len(h.clients) == 0
		h.mu.Unlock()
		if retire {
			h.close(errRetired)
		}
	})
}

// snapshot returns the view's rows with the logical time they are at.
func (s *Server) snapshot(ctx context.Context, name string) (deltaview.Delta, error) {
	got := make(chan deltaview.Delta, 1)
	var once sync.Once
	cancel, err := s.db.SubscribeWith(name, deltaview.SubscribeOptions{Snapshot: true}, func(d deltaview.Delta) {
		once.Do(func() { got <- d })
	})
	if err != nil {
		return deltaview.Delta{}, err
	}
	defer cancel()
	select {
	case d := <-got:
		return d, d.Err
	case <-ctx.Done():
		return deltaview.Delta{}, ctx.Err()
	}
}

// serveChanges streams a view's changes as server-sent events.
func (s *Server) serveChanges(w http.ResponseWriter, r *http.Request) {
	ctx, name := r.Context(), r.PathValue("name")
	if err := s.mayRead(r, name); err != nil {
		writeError(w, err, 0)
		return
	}
	var (
		h     *hub
		c     *client
		first []byte
		err   error
	)
	reason := ""
	if id, ok := s.lastEventID(r); ok {
		if h, err = s.hubFor(ctx, name); err == nil {
			c, err = h.join(id, s.o.Queue)
			for try := 0; err == errRetired && try < 3; try++ {
				if h, err = s.hubFor(ctx, name); err == nil {
					c, err = h.join(id, s.o.Queue)
				}
			}
			if err == nil {
				first = renderResume(h.cols, id)
			} else if err == errNotHeld {
				reason = fmt.Sprintf("the server no longer holds every change after event %d", id)
			}
		}
	} else if v := r.Header.Get("Last-Event-ID"); v != "" {
		reason = fmt.Sprintf("Last-Event-ID %q is not an event of this stream", v)
	}
	// A fresh snapshot, then the hub's deltas after it; a hub that dropped
	// them meanwhile (a burst beyond its ring) is asked again.
	for try := 0; c == nil && try < 3; try++ {
		if h, err = s.hubFor(ctx, name); err != nil {
			break
		}
		var d deltaview.Delta
		if d, err = s.snapshot(ctx, name); err != nil {
			break
		}
		if c, err = h.join(d.TS, s.o.Queue); err == nil {
			first = renderEvent(nil, "snapshot", d.TS, h.cols, d.Changes, reason)
		}
	}
	if c == nil {
		st := 0
		switch {
		case pgerr.Code(err) == pgerr.UndefinedTable:
			st = http.StatusNotFound
		case err == errNotHeld:
			err = pgerr.New("53400", "the view changes too fast to take a snapshot of it")
		}
		writeError(w, err, st)
		return
	}
	defer h.leave(c)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(s.o.WriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// writeQueued writes b and the events queued behind it with one
	// flush: a client that fell behind catches up in few writes, which
	// spares the CPU that the commits share with a thousand streams.
	writeQueued := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(s.o.WriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		for n := len(c.ch); n > 0; n-- {
			if _, err := w.Write(<-c.ch); err != nil {
				return false
			}
		}
		return rc.Flush() == nil
	}
	fail := func(err error) {
		e := pgerr.Wrap(err)
		write(appendError(append(make([]byte, 0, 256), "event: error\ndata: "...), e))
		write([]byte("\n\n"))
	}
	if !write(first) {
		return
	}
	tick := time.NewTicker(s.o.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case b := <-c.ch:
			if !writeQueued(b) {
				c.fail(nil)
				return
			}
		case <-c.gone:
			fail(c.err)
			return
		case <-s.quit:
			fail(errShutdown)
			return
		case <-ctx.Done():
			return
		case <-tick.C:
			if !write([]byte(": keep-alive\n\n")) {
				return
			}
		}
	}
}

// lastEventID returns the logical time a reconnecting client last got; a
// time after the last commit is no event of the stream.
func (s *Server) lastEventID(r *http.Request) (uint64, bool) {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		return 0, false
	}
	id, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, false
	}
	sess := dbaccess.NewSession(s.db)
	defer sess.Close()
	return id, id <= sess.LastTS()
}

// renderEvent renders a snapshot or delta event: its logical time as the
// id, the columns (for a snapshot), the changes, and why a snapshot
// replaces a resume that was asked for.
func renderEvent(buf []byte, kind string, ts uint64, cols []byte, changes []deltaview.Change, reset string) []byte {
	buf = append(buf, "event: "...)
	buf = append(buf, kind...)
	buf = strconv.AppendUint(append(buf, "\nid: "...), ts, 10)
	buf = strconv.AppendUint(append(buf, "\ndata: {\"ts\":"...), ts, 10)
	if reset != "" {
		buf = resultfmt.AppendJSONString(append(buf, `,"reset":true,"reason":`...), reset)
	}
	if cols != nil {
		buf = append(append(buf, `,"columns":`...), cols...)
	}
	buf = append(buf, `,"changes":[`...)
	var t []byte
	for i, ch := range changes {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(append(buf, `{"diff":`...), ch.Diff, 10)
		buf = appendRow(append(buf, `,"row":`...), ch.Row, &t)
		buf = append(buf, '}')
	}
	return append(buf, "]}\n\n"...)
}

func renderResume(cols []byte, after uint64) []byte {
	buf := strconv.AppendUint([]byte("event: resume\ndata: {\"after\":"), after, 10)
	buf = append(append(buf, `,"columns":`...), cols...)
	return append(buf, "}\n\n"...)
}

func (s *Server) noteLagged() { s.lagged.Add(1) }
