package engine

import (
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// A view may call a PL/pgSQL function declared IMMUTABLE, trusting the
// marking as PostgreSQL does: the view runs it for each row it computes,
// outside any session. Its statements may read no table (0A000 when one
// does: the view would not know to follow the table's changes) and
// change nothing; its notices go nowhere. The views' calls share one
// lock, as views are maintained and recomputed by several goroutines,
// and one cache of bindings.

// viewCalls is the state of the views' calls of PL/pgSQL functions.
type viewCalls struct {
	mu       sync.Mutex
	depth    int
	bindings plBindings
}

// ViewRoutines implements sql.RoutineCatalog.
func (e *Engine) ViewRoutines() expr.Routines { return viewRoutines{e: e} }

// ViewRoutines implements sql.RoutineCatalog.
func (r *recorder) ViewRoutines() expr.Routines {
	if rc, ok := r.cat.(sql.RoutineCatalog); ok {
		return rc.ViewRoutines()
	}
	return nil
}

// ViewRoutines implements sql.RoutineCatalog.
func (v viewRecorder) ViewRoutines() expr.Routines { return v.r.ViewRoutines() }

// viewRoutines runs the PL/pgSQL functions of views; nested is set for a
// call made by one of them, which holds the lock.
type viewRoutines struct {
	e      *Engine
	nested bool
}

// Call implements expr.Routines.
func (r viewRoutines) Call(sig string, args []value.Value) (value.Value, error) {
	e := r.e
	vc := &e.viewCalls
	if !r.nested {
		vc.mu.Lock()
		defer vc.mu.Unlock()
	}
	f, err := e.routineOf(sig)
	if err != nil {
		return value.Null, err
	}
	if vc.depth >= maxRoutineDepth {
		return value.Null, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	pf, err := e.compiled(f)
	if err != nil {
		return value.Null, err
	}
	vc.depth++
	defer func() { vc.depth-- }()
	v, _, err := pf.Call(viewRuntime{e}, args)
	return v, err
}

// CallSet implements expr.Routines: a view calls no set-returning
// PL/pgSQL function (the binder refuses it).
func (r viewRoutines) CallSet(sig string, _ []value.Value) ([]value.Row, error) {
	return nil, pgerr.New(pgerr.FeatureNotSupported, "set-returning function %s in a view is not supported", sig)
}

// viewRuntime runs the statements of a function a view calls.
type viewRuntime struct{ e *Engine }

var _ plpgsql.Runtime = viewRuntime{}

// Run implements plpgsql.Runtime: queries that read no table.
func (rt viewRuntime) Run(st *sql.Stmt, types []value.Type, args []value.Value, keep bool) (*plpgsql.Result, error) {
	e := rt.e
	key := plKey{st: st, types: typesKey(types)}
	var bd *plBinding
	if keep {
		bd = e.viewCalls.bindings.take(key, e.catalogGen)
	}
	if bd == nil {
		rec := &recorder{cat: e, seen: map[string]bool{}, text: st.SQL}
		b, params, err := sql.BindWithParams(rec, st, types)
		if err != nil {
			return nil, err
		}
		if _, ok := b.(*sql.Select); !ok {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "an IMMUTABLE function called in a view may not change data: %s", strings.TrimSpace(st.SQL))
		}
		for name := range rec.seen {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "an IMMUTABLE function called in a view may not read table %q", name).
				WithHint("join the table in the view's query instead")
		}
		rec.clock.Routines = viewRoutines{e: e, nested: true}
		bd = &plBinding{bound: b, params: params, rec: rec}
	}
	if keep {
		defer e.viewCalls.bindings.give(key, bd)
	}
	for i, p := range bd.params {
		p.V, p.Set = args[i], true
	}
	res, err := execSelect(bd.bound.(*sql.Select).Plan, e.viewQueryBudget(e))
	if err != nil {
		return nil, err
	}
	return &plpgsql.Result{Cols: res.Columns, Rows: res.Rows, Count: int64(len(res.Rows))}, nil
}

// Assign implements plpgsql.Runtime.
func (viewRuntime) Assign(v value.Value, t value.Type) (value.Value, error) { return plAssign(v, t) }

// Notice implements plpgsql.Runtime: a view's calls have no client.
func (viewRuntime) Notice(string, string) {}

// Mark implements plpgsql.Runtime: a view's calls change nothing.
func (viewRuntime) Mark() plpgsql.Mark { return plpgsql.Mark{} }

// Undo implements plpgsql.Runtime.
func (viewRuntime) Undo(plpgsql.Mark) {}
