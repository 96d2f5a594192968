// Package httpapi serves a deltaview database over HTTP: SQL statements
// in and JSON results out, a materialized view's rows as JSON or CSV, a
// view's changes as server-sent events, and the database's figures in
// Prometheus's text format.
//
//	POST /v1/sql                  statements (the body, or JSON {"sql": "…"}) → JSON results
//	GET  /v1/views/{name}         the view's rows: JSON, or CSV (Accept: text/csv or ?format=csv)
//	GET  /v1/views/{name}/changes a snapshot event, then one event per commit (server-sent events)
//	GET  /v1/catalog              the tables and views with their figures (rows, bytes, steps, refills, cold start)
//	GET  /v1/views/{name}/explain the view's operators and their state (EXPLAIN (FORMAT json))
//	GET  /metrics                 Prometheus text format
//	GET  /healthz                 "ok" while serving
//	GET  /                        the web console
//
// For example, with a server on 127.0.0.1:8080:
//
//	curl -d 'CREATE TABLE t (a int); INSERT INTO t VALUES (1)' http://127.0.0.1:8080/v1/sql
//	{"results":[{"tag":"CREATE TABLE"},{"tag":"INSERT 0 1"}]}
//
// Each request to /v1/sql runs in a session of its own: a script may hold
// whole transaction blocks, and one that ends inside a block has it rolled
// back (SQLSTATE 25000). Errors are JSON objects with the SQLSTATE, the
// message, the 1-based character position in the script, the detail and
// the hint.
//
// A change stream's events carry the view's logical time as their id:
// first "snapshot" (the view's rows, as changes with diff +n, and its
// columns), then one "delta" per commit that changes the view (rows in
// with diff +n, rows out with diff -n), and, when the stream ends for the
// server's reason, "error" with a SQLSTATE: 53400 for a client that fell
// Options.Queue events behind, 42P01 when the view is dropped, 57P01 at
// shutdown. A client that reconnects with Last-Event-ID gets "resume" and
// the deltas after that id while the server holds them all, else a fresh
// snapshot with "reset": true and the reason. Values are JSON numbers and
// booleans where that is exact, null, or PostgreSQL's text.
//
// Until the catalog holds a role, anyone who can reach the listener may do
// anything, so the server is then meant for loopback addresses. Once roles
// exist, every request but /healthz authenticates as a role: HTTP basic
// authentication with the role's name and password, or a bearer token that
//
//	POST /v1/token                a bearer token for the role of the basic credentials
//
// issues (valid TokenLifetime); statements run with the role's privileges,
// and reading a view's rows or changes needs SELECT on it. Missing or
// wrong credentials get 401 (SQLSTATE 28P01), a missing privilege 403
// (42501).
package httpapi

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/deltaview/deltaview"
)

// Options configure a Server; zero fields take the defaults.
type Options struct {
	// MaxBody is the largest request body accepted, in bytes (1 MiB by
	// default); a larger one gets 413 and SQLSTATE 54000.
	MaxBody int64
	// Ring is how many of a view's most recent deltas the server keeps so
	// that a change stream can resume with Last-Event-ID (1024 by
	// default); RingBytes bounds their total size (16 MiB by default).
	Ring      int
	RingBytes int
	// Linger is how long a view's subscription and ring outlive its last
	// change stream (1 minute by default), so that a client that
	// reconnects soon can resume.
	Linger time.Duration
	// Queue is how many events may wait for one change stream's client
	// (256 by default). A client that lets it fill is disconnected with an
	// error event; the commits never wait for it.
	Queue int
	// WriteTimeout bounds the writing of one event to a change stream's
	// client, and the reading of a request body and the writing of an
	// answer (10 s by default): a client that reads nothing is dropped.
	WriteTimeout time.Duration
	// KeepAlive is how often an idle change stream gets a comment line
	// (15 s by default), so that proxies keep it open.
	KeepAlive time.Duration
	// Logf reports failures no client can be told of; nil discards them.
	Logf func(format string, args ...any)
	// TLS, when set, makes Serve speak HTTPS.
	TLS *tls.Config
}

func (o *Options) defaults() {
	if o.MaxBody <= 0 {
		o.MaxBody = 1 << 20
	}
	if o.Ring <= 0 {
		o.Ring = 1024
	}
	if o.RingBytes <= 0 {
		o.RingBytes = 16 << 20
	}
	if o.Linger <= 0 {
		o.Linger = time.Minute
	}
	if o.Queue <= 0 {
		o.Queue = 256
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 10 * time.Second
	}
	if o.KeepAlive <= 0 {
		o.KeepAlive = 15 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// Server is an http.Handler serving one database. It keeps, per view that
// a change stream has asked for, one subscription and a bounded ring of
// its recent deltas, shared by the view's streams.
type Server struct {
	db  *deltaview.DB
	o   Options
	mux *http.ServeMux

	mu       sync.Mutex
	hubs     map[string]*hub
	closed   bool
	quit     chan struct{} // closed by Close: change streams end
	lagged   atomic.Int64  // change streams dropped for a full queue
	requests map[string]int64
	tokens   tokens
}

// New returns a Server for db.
func New(db *deltaview.DB, o Options) *Server {
	o.defaults()
	s := &Server{db: db, o: o, mux: http.NewServeMux(), hubs: map[string]*hub{}, quit: make(chan struct{}),
		requests: map[string]int64{}}
	s.mux.HandleFunc("POST /v1/sql", s.count("sql", s.authenticate(s.serveSQL)))
	s.mux.HandleFunc("GET /v1/views/{name}", s.count("view", s.authenticate(s.serveView)))
	s.mux.HandleFunc("GET /v1/views/{name}/changes", s.count("changes", s.authenticate(s.serveChanges)))
	s.mux.HandleFunc("GET /metrics", s.count("metrics", s.authenticate(s.serveMetrics)))
	s.mux.HandleFunc("POST /v1/token", s.count("token", s.authenticate(s.serveToken)))
	s.mux.HandleFunc("GET /healthz", s.count("healthz", s.serveHealth))
	s.routeConsole()
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func (s *Server) count(name string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests[name]++
		s.mu.Unlock()
		h(w, r)
	}
}

// Close ends the change streams, each with an error event (SQLSTATE
// 57P01), and the subscriptions behind them; /healthz answers 503 from
// then on. Requests in flight otherwise finish.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.quit)
	hubs := s.hubs
	s.hubs = map[string]*hub{}
	s.mu.Unlock()
	for _, h := range hubs {
		h.close(nil)
	}
}

func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if closed {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("shutting down\n"))
		return
	}
	w.Write([]byte("ok\n"))
}

// ShutdownTimeout bounds how long Serve waits, once its context is done,
// for requests in flight to finish.
const ShutdownTimeout = 10 * time.Second

// Serve serves db over HTTP to the clients of ln until ctx is done or ln
// fails. When ctx is done it stops accepting, ends the change streams with
// an error event, lets the other requests finish (up to
// ShutdownTimeout), and returns nil.
func Serve(ctx context.Context, db *deltaview.DB, ln net.Listener, o Options) error {
	s := New(db, o)
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	hs.RegisterOnShutdown(s.Close)
	done := make(chan error, 1)
	stop := context.AfterFunc(ctx, func() {
		sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
		defer cancel()
		err := hs.Shutdown(sctx)
		if errors.Is(err, context.DeadlineExceeded) {
			err = hs.Close()
		}
		done <- err
	})
	defer stop()
	if o.TLS != nil {
		ln = tls.NewListener(ln, o.TLS)
	}
	err := hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		s.Close()
		return <-done
	}
	s.Close()
	return err
}
