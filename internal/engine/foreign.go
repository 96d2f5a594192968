package engine

import (
	"sync"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Foreign tables (CREATE SERVER, CREATE FOREIGN TABLE … OPTIONS (view
// 'v')) keep materialized views in tables of other databases. As for
// subscriptions, a driver package registers itself (RegisterForeign) and
// owns the connections and goroutines; the engine hands it the statements
// outside its locks and reads its figures for the system view
// deltaview_sinks. A driver keeps a view through AttachSink.

// Foreign runs an engine's servers and foreign tables.
type Foreign interface {
	// AddServer checks cs's options and adds the server (42710 when one
	// of its name exists, unless IF NOT EXISTS); undo is nil when it
	// added nothing. The engine calls it under its lock, writes the
	// store itself and calls undo when the change is undone (a
	// transaction block's ROLLBACK): it must not call the engine.
	AddServer(cs *sql.CreateServer) (undo func(), err error)
	// DropServers drops the servers ds names, which no foreign table may
	// use (2BP01), skipping missing ones under IF EXISTS (42704
	// otherwise): all or none. It returns the names dropped; as for
	// AddServer, under the engine's lock.
	DropServers(ds *sql.DropSink) (dropped []string, undo func(), err error)
	CreateForeignTable(s *sql.CreateForeignTable) error
	Drop(s *sql.DropSink) error
	// Resume creates again the servers and foreign tables a store kept;
	// a foreign table whose view is gone is kept, failed.
	Resume(servers []StoredServer, tables []StoredForeignTable) error
	// Status returns one row of deltaview_sinks per foreign table. It is
	// called under the engine's lock: it must not call the engine.
	Status() []value.Row
	// Close stops every foreign table's goroutine.
	Close()
}

// Detachable is a Sink told, under the engine's lock, that the engine
// detached it: its view was dropped, or it failed to commit, or the
// store refused a commit it had committed already. It receives nothing
// more.
type Detachable interface {
	Detached(reason string)
}

var (
	foreignMu      sync.Mutex
	newForeignFunc func(e *Engine) Foreign
)

// RegisterForeign makes CREATE SERVER and CREATE FOREIGN TABLE available
// to every engine: newForeign returns an engine's driver, on its first
// such statement.
func RegisterForeign(newForeign func(e *Engine) Foreign) {
	foreignMu.Lock()
	newForeignFunc = newForeign
	foreignMu.Unlock()
}

// foreign returns e's driver, made on first use; nil when no driver is
// registered.
func (e *Engine) foreign() Foreign {
	e.subsDriverMu.Lock()
	defer e.subsDriverMu.Unlock()
	if e.foreignDriver == nil && !e.closed {
		foreignMu.Lock()
		f := newForeignFunc
		foreignMu.Unlock()
		if f != nil {
			e.foreignDriver = f(e)
		}
	}
	return e.foreignDriver
}

// foreignStmt runs CREATE SERVER, CREATE FOREIGN TABLE, DROP SERVER or
// DROP FOREIGN TABLE. Foreign tables and DROP SERVER … CASCADE run
// outside a transaction block only: they are not transactional here;
// the others are catalog changes (foreign_server.go).
func (s *Session) foreignStmt(b sql.Bound) (Result, error) {
	var verb string
	switch b := b.(type) {
	case *sql.CreateServer:
		verb = "CREATE SERVER"
	case *sql.CreateForeignTable:
		verb = "CREATE FOREIGN TABLE"
	case *sql.DropSink:
		verb = "DROP FOREIGN TABLE"
		if b.Server {
			verb = "DROP SERVER"
		}
	}
	if serverCatalogStmt(b) {
		return s.serverChange(b, verb)
	}
	if s.block {
		return Result{}, pgerr.New(pgerr.ActiveTransaction, "%s cannot run inside a transaction block", verb)
	}
	s.e.mu.RLock()
	err := s.mustBeSuperuser("run " + verb)
	s.e.mu.RUnlock()
	if err != nil {
		return Result{}, err
	}
	d := s.e.foreign()
	if d == nil {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%s needs the sinks, which this program does not link", verb).
			WithHint(`import _ "github.com/deltaview/deltaview/sink/postgres" or _ "github.com/deltaview/deltaview/sink/sqlite"`)
	}
	switch b := b.(type) {
	case *sql.CreateForeignTable:
		err = d.CreateForeignTable(b)
	case *sql.DropSink:
		err = d.Drop(b)
	}
	return Result{Tag: verb}, err
}

// sinkRows are deltaview_sinks' rows.
func (e *Engine) sinkRows() []value.Row {
	e.subsDriverMu.Lock()
	d := e.foreignDriver
	e.subsDriverMu.Unlock()
	if d == nil {
		return nil
	}
	return d.Status()
}
