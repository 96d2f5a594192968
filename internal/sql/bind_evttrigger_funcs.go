package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// eventTriggerSRF binds pg_event_trigger_ddl_commands() and
// pg_event_trigger_dropped_objects() in FROM: rows the session that runs
// the statement gives while an event trigger's function runs (39P01
// otherwise, as PostgreSQL's). ok is false for other functions.
func (b *binder) eventTriggerSRF(f *pg_query.FuncCall) (_ *expr.SRF, ok bool, _ error) {
	name := opName(f.Funcname)
	fn := expr.EventTriggerFuncs[name]
	if fn == nil {
		return nil, false, nil
	}
	if len(f.Args) > 0 || f.AggStar {
		return nil, true, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(…) does not exist", name).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if b.forView {
		return nil, true, b.refuse(f.Location, "%s() reads the event trigger running and cannot be maintained in a view", name)
	}
	clock := b.stmtClock
	if clock == nil {
		return nil, true, b.refuse(f.Location, "%s() is supported in queries only", name)
	}
	gen := func(_ []value.Value, emit func(value.Row) error) error {
		be, _ := clock.Backend.(expr.EventTriggerBackend)
		if be == nil {
			return pgerr.New("39P03", "%s() can only be called in an event trigger function", name)
		}
		rows, err := be.EventTriggerRows(name)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
	return &expr.SRF{Name: name, Cols: fn.Cols, Names: fn.Names, Gen: gen}, true, nil
}
