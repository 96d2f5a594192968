package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// tableRoutines runs the user functions that tables' defaults and checks
// call (sql.TableRoutineCatalog), for the session whose statement writes
// the row (Engine.firer), as PostgreSQL runs them in the writing backend.
type tableRoutines struct{ e *Engine }

var _ expr.Routines = tableRoutines{}

// TableRoutines implements sql.TableRoutineCatalog.
func (e *Engine) TableRoutines() expr.Routines { return tableRoutines{e: e} }

// TableRoutines implements sql.TableRoutineCatalog.
func (r *recorder) TableRoutines() expr.Routines {
	if rc, ok := r.cat.(sql.TableRoutineCatalog); ok {
		return rc.TableRoutines()
	}
	return nil
}

// session is the session writing, or an error when a row is written
// without one.
func (r tableRoutines) session(sig string) (*Session, error) {
	if s := r.e.firer; s != nil {
		return s, nil
	}
	fsig, _ := sql.SplitRoutineSig(sig)
	return nil, pgerr.New(pgerr.FeatureNotSupported, "function %s called by a table's definition runs only in a session's statements", fsig)
}

// Call implements expr.Routines.
func (r tableRoutines) Call(sig string, args []value.Value) (value.Value, error) {
	s, err := r.session(sig)
	if err != nil {
		return value.Null, err
	}
	return sessionRoutines{s}.Call(sig, args)
}

// RoutineStrict implements expr.RoutineStrictness.
func (r tableRoutines) RoutineStrict(sig string) (bool, bool) {
	s, err := r.session(sig)
	if err != nil {
		return false, false
	}
	return sessionRoutines{s}.RoutineStrict(sig)
}

// CallSet implements expr.Routines: a table's definition calls no
// set-returning function (the binder refuses it).
func (r tableRoutines) CallSet(sig string, args []value.Value) ([]value.Row, error) {
	s, err := r.session(sig)
	if err != nil {
		return nil, err
	}
	return sessionRoutines{s}.CallSet(sig, args)
}
