// Package pgwire serves a deltaview database over PostgreSQL's
// frontend/backend protocol, version 3: psql and PostgreSQL drivers
// connect to it as to a PostgreSQL 15 server. Each connection is a session
// of its own (its own transaction); simple and extended query, text and
// binary formats, notices, errors with SQLSTATE and position, and COPY …
// FROM STDIN are supported. A view's changes are read with COPY
// (SUBSCRIBE v) TO STDOUT, or with DECLARE c CURSOR FOR SUBSCRIBE v and
// FETCH inside a transaction block; psql's \d commands are answered from
// the catalog.
//
// Until the catalog holds a role, the server lets in the superuser
// "deltaview" (database "deltaview") without a password, and only from
// loopback addresses. Once roles exist (CREATE ROLE … LOGIN PASSWORD …),
// a client logs in as a role with SCRAM-SHA-256, from anywhere, and its
// session has the role's privileges. With a certificate (Options.TLS) a
// client may encrypt the connection (sslmode=require).
package pgwire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/scram"
)

// Options configure Serve.
type Options struct {
	// Logf reports connections that fail; nil discards the reports.
	Logf func(format string, args ...any)
	// TLS, when set, lets clients encrypt their connections (an
	// SSLRequest is answered 'S'); without it the answer is 'N'.
	TLS *tls.Config
	// MaxConnections bounds the connections served at once; a client
	// beyond it gets SQLSTATE 53300. 0 for 100, PostgreSQL's default.
	MaxConnections int
	// StatementTimeout and IdleSessionTimeout are the sessions' initial
	// statement_timeout and idle_session_timeout; 0 for none.
	StatementTimeout   time.Duration
	IdleSessionTimeout time.Duration
	// StreamWriteTimeout bounds the writing of a COPY (SUBSCRIBE …)
	// stream's rows to its client (30 s when 0): a client that reads
	// nothing for that long is disconnected. Commits never wait for it.
	StreamWriteTimeout time.Duration
}

// DefaultMaxConnections is the bound on connections when
// Options.MaxConnections is 0.
const DefaultMaxConnections = 100

// Serve serves db to the PostgreSQL clients that connect to ln, until ctx
// is done or ln fails. When ctx is done it stops accepting, lets each
// connection finish the statement it is running (a commit in flight
// completes), ends the connections with SQLSTATE 57P01 (their open
// transactions roll back), and returns nil once all have ended.
func Serve(ctx context.Context, db *deltaview.DB, ln net.Listener, o Options) error {
	if o.MaxConnections <= 0 {
		o.MaxConnections = DefaultMaxConnections
	}
	if o.StreamWriteTimeout <= 0 {
		o.StreamWriteTimeout = 30 * time.Second
	}
	newSession := func() *engine.Session {
		s := dbaccess.NewSession(db)
		s.SetStatementTimeout(o.StatementTimeout)
		s.SetIdleSessionTimeout(o.IdleSessionTimeout)
		return s
	}
	s := &server{db: db, newSession: newSession, logf: o.Logf, tls: o.TLS, maxConns: o.MaxConnections, decoy: decoyVerifier(),
		streamWrite: o.StreamWriteTimeout, stopping: make(chan struct{})}
	return s.serve(ctx, ln)
}

// server accepts connections and serves each on a session of its own. It
// keeps the connections it serves, so that it can end them when its
// context is done.
type server struct {
	db         *deltaview.DB
	newSession func() *engine.Session
	logf       func(format string, args ...any)
	tls        *tls.Config
	maxConns   int
	decoy      scram.Verifier // see login
	// streamWrite bounds a write of a COPY (SUBSCRIBE …) stream.
	streamWrite time.Duration

	// stopping is closed at shutdown: it ends the waits of FETCH.
	stopping chan struct{}

	mu      sync.Mutex
	conns   map[*conn]struct{}
	closing bool
	wg      sync.WaitGroup
}

// User is the built-in superuser, the only role until roles exist;
// Database is the only database.
const (
	User     = engine.SuperuserName
	Database = engine.DatabaseName
)

func (s *server) serve(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() {
		ln.Close()
		s.shutdown()
	})
	defer stop()
	for {
		nc, err := ln.Accept()
		if err != nil {
			s.shutdown()
			s.wg.Wait()
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		s.mu.Lock()
		if s.closing {
			s.mu.Unlock()
			nc.Close()
			continue
		}
		if s.conns == nil {
			s.conns = map[*conn]struct{}{}
		}
		c := &conn{srv: s, nc: nc, rw: nc, key: make([]byte, 4), cancel: make(chan struct{}, 1),
			over: len(s.conns) >= s.maxConns}
		rand.Read(c.key)
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			if err := c.serve(); err != nil && s.logf != nil && !errors.Is(err, net.ErrClosed) {
				s.logf("connection from %s: %v", nc.RemoteAddr(), err)
			}
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		}()
	}
}

// shutdown makes every connection's next read fail at once: a connection
// waiting for a message ends now, one running a statement ends after it.
func (s *server) shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closing {
		close(s.stopping)
	}
	s.closing = true
	for c := range s.conns {
		c.nc.SetReadDeadline(time.Now())
	}
}

// cancelRequest asks the connection with process id pid and secret key
// key to cancel what it runs (its streaming COPY, or its session's
// statement at its next cancellation point, as pg_cancel_backend does); a
// request that names no connection is dropped, as PostgreSQL drops it.
func (s *server) cancelRequest(pid uint32, key []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.sess != nil && c.pid == pid && subtle.ConstantTimeCompare(c.key, key) == 1 {
			select {
			case c.cancel <- struct{}{}:
			default:
			}
			c.sess.Cancel()
		}
	}
}

// clearReadDeadline lets c's reads wait again, unless the server is
// shutting down: under the lock that shutdown holds while it sets every
// connection's deadline, so that a shutdown between the check and the
// reset is not undone.
func (s *server) clearReadDeadline(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closing {
		c.nc.SetReadDeadline(time.Time{})
	}
}

// setReadDeadline makes c's reads fail at t, unless the server is shutting
// down (its deadline is already now).
func (s *server) setReadDeadline(c *conn, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closing {
		c.nc.SetReadDeadline(t)
	}
}

func (s *server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}
