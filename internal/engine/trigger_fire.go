package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// trigFire keeps, for one statement on one table with triggers, the
// AFTER events its rows and its end queued, fired in order by fire.
//
// As in PostgreSQL: BEFORE STATEMENT triggers run before the statement
// reads its rows; each row's BEFORE ROW triggers run, in name order,
// before it is written, each seeing the row the one before returned, and
// a NULL returned skips the row; an AFTER ROW trigger whose WHEN holds
// for the written row is queued then; AFTER STATEMENT triggers are queued
// at the end, and the queue runs once the statement's rows are written.
// A trigger's function runs in the session that runs the statement, as
// PL/pgSQL code of it (routine.go): its own statements fire their
// tables' triggers in turn, nested at most maxRoutineDepth deep (54001),
// and an error anywhere undoes the whole statement (Engine.atomically).
// Rows that a subscription applies (Engine.replica) and change events
// (which take no DML path) fire nothing, ENABLE ALWAYS and ENABLE REPLICA
// triggers included (PostgreSQL's apply worker fires those); neither does
// a change made without a session (Engine.firer nil). A session's
// statements fire by its session_replication_role (trigger_mode.go).
type trigFire struct {
	e    *Engine
	s    *Session
	t    *table // nil for a view's
	list []*trigger
	// rel and cols are the table's or the view's name and columns.
	rel  string
	cols []plan.Column
	// set are the columns the statement's UPDATE assigns, which UPDATE
	// OF triggers look for.
	set   []int
	after []afterEvent
	// transOps are the events whose rows transition tables keep, trans
	// those rows (trigger_transition.go).
	transOps int16
	trans    map[int16]*transRows
	// rowType is the table's row type, made on the first call.
	rowType value.Type
	// descendant is set for a table an UPDATE or DELETE of its
	// inheritance ancestor reaches: only its row triggers fire.
	descendant bool
	// replica is session_replication_role = replica, or a subscription's
	// rows (trigger_mode.go).
	replica bool
}

// afterEvent is an AFTER trigger to run: for a row (old and new, nil
// where absent) or for the statement.
type afterEvent struct {
	tr       *trigger
	op       int16
	row      bool
	old, new value.Row
}

// fireFor returns the firing of t's triggers by the statement running;
// nil when the table has none, or nothing fires them.
func (e *Engine) fireFor(t *table) *trigFire {
	descendant := e.inheritChild
	e.inheritChild = false // the statements its triggers run are their own
	if t.trig == nil || e.firer == nil || e.replica {
		return nil
	}
	replica := e.replicaRole()
	if !anyFires(t.trig, replica) {
		return nil
	}
	return &trigFire{e: e, s: e.firer, t: t, list: t.trig, rel: t.name, cols: t.cols, transOps: transOps(t.trig), replica: replica, descendant: descendant}
}

// fires reports whether tr fires for op at timing kind (sql.TriggerRow
// and sql.TriggerBefore bits).
func (f *trigFire) fires(tr *trigger, op, kind int16) bool {
	if !tr.firesIn(f.replica) || tr.typ&op == 0 || tr.typ&(sql.TriggerRow|sql.TriggerBefore) != kind {
		return false
	}
	if op == sql.TriggerUpdate && tr.cols != nil {
		for _, c := range tr.cols {
			if slices.Contains(f.set, c) {
				return true
			}
		}
		return false
	}
	return true
}

// holds evaluates tr's WHEN over the old row and the new.
func (f *trigFire) holds(tr *trigger, old, new value.Row) (bool, error) {
	if tr.when == nil {
		return true, nil
	}
	n := len(f.cols)
	env := make(value.Row, 2*n)
	for i := range env {
		env[i] = value.Null
	}
	copy(env, old)
	if new != nil {
		copy(env[n:], new)
	}
	return accepts(tr.when, env)
}

// beforeStatement runs the BEFORE STATEMENT triggers of op.
func (f *trigFire) beforeStatement(op int16) error {
	if f.descendant {
		return nil
	}
	for _, tr := range f.list {
		if !f.fires(tr, op, sql.TriggerBefore) {
			continue
		}
		if ok, err := f.holds(tr, nil, nil); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		if _, err := f.call(tr, op, sql.TriggerBefore, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// beforeRow runs the BEFORE ROW triggers of op for a row: the row to
// write (for INSERT and UPDATE, as the triggers left it), false when a
// trigger returned NULL, which skips the row.
func (f *trigFire) beforeRow(op int16, old, new value.Row) (value.Row, bool, error) {
	for _, tr := range f.list {
		if !f.fires(tr, op, sql.TriggerBefore|sql.TriggerRow) {
			continue
		}
		if ok, err := f.holds(tr, old, new); err != nil || !ok {
			if err != nil {
				return nil, false, err
			}
			continue
		}
		out, err := f.call(tr, op, sql.TriggerBefore|sql.TriggerRow, old, new)
		if err != nil {
			return nil, false, err
		}
		if out == nil {
			return nil, false, nil
		}
		if op != sql.TriggerDelete {
			new = out
		}
	}
	return new, true, nil
}

// afterRow queues the AFTER ROW triggers of op whose WHEN holds for a
// row written.
func (f *trigFire) afterRow(op int16, old, new value.Row) error {
	f.keepTransition(op, old, new)
	var o, n value.Row // copies, made once for all the row's triggers
	for _, tr := range f.list {
		if !f.fires(tr, op, sql.TriggerRow) {
			continue
		}
		if ok, err := f.holds(tr, old, new); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		if o == nil && n == nil {
			o, n = slices.Clone(old), slices.Clone(new)
		}
		ev := afterEvent{tr: tr, op: op, row: true, old: o, new: n}
		if tr.constraint && f.deferEvent(ev) {
			continue
		}
		f.after = append(f.after, ev)
	}
	return nil
}

// afterStatement queues the AFTER STATEMENT triggers of op.
func (f *trigFire) afterStatement(op int16) error {
	if f.descendant {
		return nil
	}
	for _, tr := range f.list {
		if !f.fires(tr, op, 0) {
			continue
		}
		if ok, err := f.holds(tr, nil, nil); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		f.after = append(f.after, afterEvent{tr: tr, op: op})
	}
	return nil
}

// fire runs the AFTER events queued, in order.
func (f *trigFire) fire() error {
	for i := 0; i < len(f.after); i++ {
		ev := f.after[i]
		kind := int16(0)
		if ev.row {
			kind = sql.TriggerRow
		}
		if _, err := f.call(ev.tr, ev.op, kind, ev.old, ev.new); err != nil {
			return err
		}
	}
	f.after = f.after[:0]
	return nil
}

// deleting runs the BEFORE ROW DELETE triggers for the row of id: the
// row, false when it is gone (a trigger deleted it) or a trigger skipped
// it.
func (f *trigFire) deleting(id uint64) (value.Row, bool, error) {
	old, ok := f.t.rows.Get(id)
	if !ok {
		return nil, false, nil
	}
	_, ok, err := f.beforeRow(sql.TriggerDelete, old, nil)
	return old, ok, err
}

// end queues the AFTER STATEMENT triggers of op and runs the AFTER
// events; a nil f has nothing to run.
func (f *trigFire) end(op int16) error {
	if f == nil {
		return nil
	}
	if err := f.afterStatement(op); err != nil {
		return err
	}
	return f.fire()
}

// typedFiring makes a change of the typed API to a table with triggers,
// as the one row of a statement of op: an insertion of new, a deletion of
// the row of id (old), or its update to new.
func (e *Engine) typedFiring(t *table, op int16, id uint64, old, new value.Row) error {
	f := e.fireFor(t)
	if f == nil { // a replica's change
		switch op {
		case sql.TriggerInsert:
			_, err := e.insertRow(t, new)
			return err
		case sql.TriggerDelete:
			e.deleteRow(t, id)
			return nil
		}
		_, err := e.updateRow(t, id, old, new)
		return err
	}
	if op == sql.TriggerUpdate {
		f.set = make([]int, len(t.cols)) // every column is assigned
		for i := range f.set {
			f.set[i] = i
		}
	}
	if err := f.beforeStatement(op); err != nil {
		return err
	}
	if op != sql.TriggerInsert {
		var ok bool
		if old, ok = t.rows.Get(id); !ok {
			return f.end(op) // a BEFORE STATEMENT trigger deleted it
		}
	}
	row, ok, err := f.beforeRow(op, old, new)
	if err != nil || !ok {
		if err != nil {
			return err
		}
		return f.end(op)
	}
	switch op {
	case sql.TriggerInsert:
		_, err = e.insertRow(t, row)
	case sql.TriggerDelete:
		e.deleteRow(t, id)
	default:
		_, err = e.updateRow(t, id, old, row)
	}
	if err != nil {
		return err
	}
	if err := f.afterRow(op, old, row); err != nil {
		return err
	}
	return f.end(op)
}

// opNames are TG_OP's values.
var opNames = map[int16]string{sql.TriggerInsert: "INSERT", sql.TriggerUpdate: "UPDATE", sql.TriggerDelete: "DELETE", sql.TriggerTruncate: "TRUNCATE"}

// call runs tr's function for op at timing kind: the row it returned.
func (f *trigFire) call(tr *trigger, op, kind int16, old, new value.Row) (value.Row, error) {
	e, s := f.e, f.s
	if f.t != nil && f.t.succ != nil {
		// An earlier call may have renamed the table (table_identity.go).
		if t := e.live(f.t); t != f.t {
			f.follow(t)
		}
	}
	if tr.fnSig == sql.SuppressRedundantSig {
		return suppressRedundant(op, kind, old, new)
	}
	fn, _ := e.function(tr.fnSig, tr.fn)
	if fn == nil {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", tr.fnSig)
	}
	pf, err := e.compiledTrigger(fn)
	if err != nil {
		return nil, err
	}
	if s.routineDepth >= maxRoutineDepth {
		return nil, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("PL/pgSQL calls and triggers nest at most %d deep", maxRoutineDepth)
	}
	if f.rowType.Kind == 0 {
		fields := make([]value.RecordField, len(f.cols))
		for i, c := range f.cols {
			fields[i] = value.RecordField{Name: c.Name, Type: c.Type}
		}
		f.rowType = value.RecordTypeOf(f.rel, fields)
	}
	schema, name := f.e.splitKey(f.rel) // pg_temp_N.name for a temporary table
	td := &plpgsql.TriggerData{Name: tr.name, When: "AFTER", Level: "STATEMENT", Op: opNames[op],
		Table: name, Schema: schema, RelID: RelationOID(f.rel), Args: tr.args,
		Cols: f.cols, RowType: f.rowType, Old: old, New: new, NameNow: f.e.tableNameNow(f.rel)}
	switch {
	case kind&sql.TriggerBefore != 0:
		td.When = "BEFORE"
	case kind&sql.TriggerInstead != 0:
		td.When = "INSTEAD OF"
	}
	if kind&sql.TriggerRow != 0 {
		td.Level = "ROW"
	}
	if fr := f.transFrameFor(tr, op); fr != nil {
		s.trans = append(s.trans, fr)
		defer func() { s.trans = s.trans[:len(s.trans)-1] }()
	}
	s.routineDepth++
	s.triggerDepth++
	defer func() { s.routineDepth--; s.triggerDepth-- }()
	defer s.enterRoutine(fn)()
	return pf.CallTrigger(&plRuntime{s: s}, td)
}

// compiledTrigger returns the compiled body of a trigger function,
// compiling it at its first run.
func (e *Engine) compiledTrigger(f *sql.Function) (*plpgsql.Func, error) {
	if pf, ok := f.Compiled.(*plpgsql.Func); ok {
		return pf, nil
	}
	sig := routineSignature(f)
	sig.RowType, sig.Trigger, sig.EventTrigger = e.isRowType, true, f.EventTrigger
	pf, err := plpgsql.Compile(f.SQL, f.Source, sig)
	if err != nil {
		return nil, err
	}
	f.Compiled = pf
	return pf, nil
}
