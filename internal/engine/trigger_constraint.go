package engine

import (
	"maps"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Constraint triggers (CREATE CONSTRAINT TRIGGER … AFTER … FOR EACH ROW)
// keep, in the open transaction, the AFTER ROW events of those deferred:
// the rest fire at the end of their statement as any AFTER ROW trigger.
// As in PostgreSQL, a trigger is deferred when it is DEFERRABLE and SET
// CONSTRAINTS (its name, else ALL) said DEFERRED in the transaction
// block, or, without either, when it is INITIALLY DEFERRED. A deferred
// event fires at COMMIT, in the order queued (with firer the session
// that queued it), before the views step; an error there rolls the whole
// transaction back and COMMIT fails with it. SET CONSTRAINTS … IMMEDIATE
// fires at once the queued events of the triggers it makes immediate.
// An event is kept with the length of the transaction's log after its
// row was written, so that an undo to an earlier mark (a failed
// statement, ROLLBACK TO SAVEPOINT, an EXCEPTION block) drops it with the
// row.

// deferredEvent is a deferred constraint trigger's event.
type deferredEvent struct {
	f   *trigFire
	ev  afterEvent
	pos int // the log's length when it was queued
}

// conModes are the SET CONSTRAINTS of a session's transaction block.
type conModes struct {
	all   int8 // 1 DEFERRED, -1 IMMEDIATE, 0 not set
	named map[*trigger]bool
	fks   map[string]bool // deferrable foreign keys by name (fkey_deferred.go)
}

// clone returns a copy of m that a later SET CONSTRAINTS leaves as it is.
func (m conModes) clone() conModes {
	if m.named != nil {
		m.named = maps.Clone(m.named)
	}
	if m.fks != nil {
		m.fks = maps.Clone(m.fks)
	}
	return m
}

// deferred reports whether tr's events wait for the commit.
func (s *Session) deferred(tr *trigger) bool {
	if !tr.deferrable {
		return false
	}
	if d, ok := s.cons.named[tr]; ok {
		return d
	}
	if s.cons.all != 0 {
		return s.cons.all > 0
	}
	return tr.initDeferred
}

// deferEvent queues ev of f for the commit, when its trigger is deferred.
func (f *trigFire) deferEvent(ev afterEvent) bool {
	if !ev.tr.constraint || !f.s.deferred(ev.tr) {
		return false
	}
	tx := f.e.tx
	tx.deferred = append(tx.deferred, deferredEvent{f: f, ev: ev, pos: len(tx.log)})
	return true
}

// dropDeferred drops the events queued after the log's mark.
func (tx *txn) dropDeferred(mark int) {
	if len(tx.deferred) > 0 {
		tx.deferred = slices.DeleteFunc(tx.deferred, func(d deferredEvent) bool { return d.pos > mark })
	}
}

// fireDeferred runs the queued events whose trigger match accepts, in
// order, and those their statements queue in turn; the others stay.
func (e *Engine) fireDeferred(match func(*trigger) bool) error {
	tx := e.tx
	for {
		var run []deferredEvent
		keep := tx.deferred[:0:0]
		for _, d := range tx.deferred {
			if match(d.ev.tr) {
				run = append(run, d)
			} else {
				keep = append(keep, d)
			}
		}
		if len(run) == 0 {
			return nil
		}
		tx.deferred = keep
		for _, d := range run {
			saved := e.firer
			e.firer = d.f.s
			_, err := e.atomically(func() (Result, error) {
				_, err := d.f.call(d.ev.tr, d.ev.op, sql.TriggerRow, d.ev.old, d.ev.new)
				return Result{}, err
			})
			e.firer = saved
			if err != nil {
				return err
			}
		}
	}
}

// fireAtCommit runs every deferred event of the transaction ending; on
// an error the caller rolls it back.
func (e *Engine) fireAtCommit() error {
	return e.fireDeferred(func(*trigger) bool { return true })
}

// constraintTriggers are the constraint triggers of a name, of every
// table.
func (e *Engine) constraintTriggers(name string) []*trigger {
	var out []*trigger
	for _, table := range sortedKeys(e.triggers) {
		for _, tr := range e.triggers[table] {
			if tr.constraint && tr.name == name {
				out = append(out, tr)
			}
		}
	}
	return out
}

// setConstraints runs SET CONSTRAINTS. Outside a transaction block it
// only checks its names, with PostgreSQL's WARNING: its transaction is
// the statement's own.
func (s *Session) setConstraints(sc *sql.SetConstraints) (Result, error) {
	e := s.e
	res := Result{Tag: "SET CONSTRAINTS"}
	if !s.block {
		res.Notices = []string{"SET CONSTRAINTS can only be used in transaction blocks"}
		res.NoticeLevels = map[int]string{0: "WARNING"}
	}
	var named []*trigger
	var fks []string
	for _, name := range sc.Names {
		trs := e.constraintTriggers(name)
		if len(trs) == 0 && (e.deferrableForeignKey(name) || e.deferrableKey(name)) {
			fks = append(fks, name)
			continue
		}
		if len(trs) == 0 {
			if e.constraintNamed(name) {
				return res, pgerr.New(pgerr.WrongObjectType, "constraint %q is not deferrable", name)
			}
			return res, pgerr.New(pgerr.UndefinedObject, "constraint %q does not exist", name)
		}
		for _, tr := range trs {
			if !tr.deferrable {
				return res, pgerr.New(pgerr.WrongObjectType, "constraint %q is not deferrable", name)
			}
		}
		named = append(named, trs...)
	}
	if !s.block {
		return res, nil
	}
	if sc.Names == nil {
		s.cons.all, s.cons.named, s.cons.fks = -1, nil, nil
		if sc.Deferred {
			s.cons.all = 1
		}
	} else {
		if s.cons.named == nil {
			s.cons.named = map[*trigger]bool{}
		}
		for _, tr := range named {
			s.cons.named[tr] = sc.Deferred
		}
		if fks != nil && s.cons.fks == nil {
			s.cons.fks = map[string]bool{}
		}
		for _, n := range fks {
			s.cons.fks[n] = sc.Deferred
		}
	}
	if !sc.Deferred && s.writer && e.tx != nil && e.tx.fkCheck {
		// The foreign keys made immediate are checked now, as PostgreSQL
		// does; the deferred ones still wait.
		if err := e.enforceForeignKeysOf(0, func(l *fkLink) bool { return l.fk.Deferrable && !s.fkDeferred(l.fk) }); err != nil {
			return res, err
		}
	}
	if !sc.Deferred && s.writer && e.tx != nil && e.tx.keyCheck {
		// Likewise the keys made immediate.
		if err := e.checkKeys(0, func(name string, init bool) bool { return !s.constraintDeferred(name, init) }); err != nil {
			return res, err
		}
	}
	if sc.Deferred || !s.writer || e.tx == nil || len(e.tx.deferred) == 0 {
		return res, nil
	}
	err := e.fireDeferred(func(tr *trigger) bool { return !s.deferred(tr) })
	e.takeNoticesInto(&res)
	return res, err
}

// constraintNamed reports whether a table has a constraint (key, unique,
// check, foreign key) of the name: setConstraints asks it of a name no
// deferrable constraint has.
func (e *Engine) constraintNamed(name string) bool {
	for _, c := range e.catalogObjects().cons {
		if c.name == name {
			return true
		}
	}
	return false
}

// pendingEvents refuses to what (TRUNCATE) a table with
// deferred events queued, or rows a deferred EXCLUDE constraint is to
// check again, as PostgreSQL does (55006, object_in_use).
func (e *Engine) pendingEvents(ts []*table, what string) error {
	if e.tx == nil {
		return nil
	}
	for _, t := range ts {
		for _, x := range t.excl {
			if len(x.recheck) > 0 {
				return pgerr.New("55006", "cannot %s %q because it has pending trigger events", what, t.name)
			}
		}
	}
	for _, d := range e.tx.deferred {
		if d.f.t != nil && slices.Contains(ts, d.f.t) {
			return pgerr.New("55006", "cannot %s %q because it has pending trigger events", what, d.f.t.name)
		}
	}
	return nil
}
