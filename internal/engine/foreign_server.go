package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// CREATE SERVER and DROP SERVER (without CASCADE) are catalog changes as
// others are: they run under the engine's write lock, inside a
// transaction block and in PL/pgSQL code too, and the block's ROLLBACK
// (or ROLLBACK TO, or a failed statement) undoes them. A server is a
// record: nothing connects until a foreign table uses it, so a change of
// the driver's list and a row of the store are all there is to undo.
// Foreign tables and DROP SERVER … CASCADE start or stop connections and
// goroutines, which no rollback takes back: they stay out of blocks
// (foreign.go).

// serverCatalogStmt reports whether b is a change of servers that runs
// as a catalog change (serverChange).
func serverCatalogStmt(b sql.Bound) bool {
	switch b := b.(type) {
	case *sql.CreateServer:
		return true
	case *sql.DropSink:
		return b.Server && !b.Cascade
	}
	return false
}

// serverChange runs CREATE SERVER or DROP SERVER as a catalog change,
// under the engine's write lock.
func (s *Session) serverChange(b sql.Bound, verb string) (Result, error) {
	if err := s.mustBeSuperuser("run " + verb); err != nil {
		return Result{}, err
	}
	d := s.e.foreign()
	if d == nil {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%s needs the sinks, which this program does not link", verb).
			WithHint(`import _ "github.com/deltaview/deltaview/sink/postgres" or _ "github.com/deltaview/deltaview/sink/sqlite"`)
	}
	return s.ddl(verb, func() (Result, error) {
		e := s.e
		var undo func()
		var notices []string
		switch b := b.(type) {
		case *sql.CreateServer:
			u, err := d.AddServer(b)
			if err != nil {
				return Result{}, err
			}
			if u == nil {
				return Result{Tag: verb, Notices: []string{fmt.Sprintf("server %q already exists, skipping", b.Name)}}, nil
			}
			undo = u
			if e.store != nil {
				opts := make([]sql.Option, len(b.Options))
				for i, o := range b.Options {
					opts[i] = sql.Option{Name: o.Name, Value: o.Value}
				}
				err = e.store.SaveServer(StoredServer{Name: b.Name, Wrapper: b.Wrapper, Options: opts})
			}
			if err != nil {
				undo()
				return Result{}, err
			}
		case *sql.DropSink:
			names, u, err := d.DropServers(b)
			if err != nil {
				return Result{}, err
			}
			undo = u
			for _, n := range b.Names {
				if !slices.Contains(names, n) {
					notices = append(notices, fmt.Sprintf("server %q does not exist, skipping", n))
				}
			}
			if e.store != nil && len(names) > 0 {
				err = e.store.DropForeign(names, nil)
			}
			if err != nil {
				undo()
				return Result{}, err
			}
		}
		e.onCatalogUndo(undo)
		return Result{Tag: verb, Notices: notices}, nil
	})
}

// onCatalogUndo has the undo of the block's running catalog change call
// undo too: for what the catalog's image does not hold (a driver's
// list). Outside a block a change is never undone once it returned.
func (e *Engine) onCatalogUndo(undo func()) {
	if d := e.txd; d != nil && len(d.undo) > 0 {
		u := &d.undo[len(d.undo)-1]
		u.drivers = append(u.drivers, undo)
	}
}
