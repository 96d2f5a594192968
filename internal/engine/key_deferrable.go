package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// A PRIMARY KEY or UNIQUE constraint declared DEFERRABLE is checked, as
// in PostgreSQL, at the end of each statement (a row may take a key
// another row still holds, UPDATE t SET pos = pos + 1), or at the commit
// while deferred (SET CONSTRAINTS, else INITIALLY DEFERRED), where a key
// not deferrable is checked at each row written. Its hash index holds
// every row of a key meanwhile: the first in m, the others in more,
// which is empty when the constraint holds, so that a check costs a
// test per deferrable key of each table the statement (or, at the
// commit, the transaction) wrote. A failing statement is undone; a
// failing commit rolls back before the views step. Such a key serves no
// ON CONFLICT and no foreign key (55000), as in PostgreSQL.

// deferKey makes the key just added to t.uniques, the key i of its
// definition (-1 the primary key), deferrable when declared so.
func (t *table) deferKey(i int) {
	d, init := t.def.KeyDeferrable(i)
	if !d {
		return
	}
	u := t.uniques[len(t.uniques)-1]
	u.deferrable, u.initDeferred = true, init
	u.ints, u.pair = nil, false // more needs encoded keys
	if u.m == nil {
		u.m = map[string]uint64{}
	}
	t.dkeys = append(t.dkeys, u)
}

// noteDeferrable records that t, just created, has a deferrable key:
// statements then check such keys at their end.
func (e *Engine) noteDeferrable(t *table) {
	if t.dkeys != nil || t.deferrableExclusions() {
		e.deferKeys = true
	}
}

// setDeferred is set for a deferrable key: a second row of the key goes
// to more.
func (u *uniqueIndex) setDeferred(k string, id uint64) {
	cur, ok := u.m[k]
	if !ok || cur == id {
		u.m[k] = id
		return
	}
	if slices.Contains(u.more[k], id) {
		return
	}
	if u.more == nil {
		u.more = map[string][]uint64{}
	}
	u.more[k] = append(u.more[k], id)
}

// dropDeferred is drop for a deferrable key: another row of the key, if
// any, takes the place of the one that leaves.
func (u *uniqueIndex) dropDeferred(k string, id uint64) {
	cur, ok := u.m[k]
	if !ok {
		return
	}
	extra := u.more[k]
	switch i := slices.Index(extra, id); {
	case cur == id && len(extra) == 0:
		delete(u.m, k)
		return
	case cur == id:
		u.m[k] = extra[0]
		extra = extra[1:]
	case i >= 0:
		extra = slices.Delete(slices.Clone(extra), i, i+1)
	default:
		return
	}
	if len(extra) == 0 {
		delete(u.more, k)
	} else {
		u.more[k] = extra
	}
}

// eachByDeferrableKey calls fn, in row id order, for the rows whose key
// in u, a deferrable key, is probe's (one, or more while the check
// waits), until fn returns false.
func (t *table) eachByDeferrableKey(u *uniqueIndex, probe value.Row, fn func(id uint64, row value.Row) bool) {
	var arr [64]byte
	k, ok := u.key(probe, arr[:0])
	if !ok {
		return
	}
	first, ok := u.m[string(k)]
	if !ok {
		return
	}
	ids := append([]uint64{first}, u.more[string(k)]...)
	slices.Sort(ids)
	for _, id := range ids {
		row, _ := t.rows.Get(id)
		if !fn(id, row) {
			return
		}
	}
}

// keyDeferred reports whether u's check waits for the commit, for the
// session whose statement runs.
func (e *Engine) keyDeferred(u *uniqueIndex) bool {
	if e.firer == nil || e.tx == nil || !e.tx.explicit || !u.deferrable {
		return false
	}
	return e.firer.constraintDeferred(u.name, u.initDeferred)
}

// constraintDeferred reports whether the deferrable key or EXCLUDE
// constraint of the name, INITIALLY DEFERRED when init, is deferred in
// the session's transaction block.
func (s *Session) constraintDeferred(name string, init bool) bool {
	if d, ok := s.cons.fks[name]; ok { // SET CONSTRAINTS by name
		return d
	}
	if s.cons.all != 0 {
		return s.cons.all > 0
	}
	return init
}

// checkKeys checks the deferrable keys and EXCLUDE constraints of the
// tables written since mark: those due accepts by name and INITIALLY
// DEFERRED (all when nil). At the end of a statement (due nil), those
// deferred are left for the commit, which is marked.
func (e *Engine) checkKeys(mark int, due func(name string, initDeferred bool) bool) error {
	var last *table
	for _, c := range e.tx.log[mark:] {
		t := c.t
		if t == last || t == nil {
			continue
		}
		last = t
		if err := e.checkExclusionsDeferred(t, due); err != nil {
			return err
		}
		for _, u := range t.dkeys {
			if due != nil && !due(u.name, u.initDeferred) {
				continue
			}
			if due == nil && e.keyDeferred(u) {
				e.tx.keyCheck = true
				continue
			}
			if len(u.more) > 0 {
				return t.keyViolation(u)
			}
		}
	}
	return nil
}

// keyViolation is the error of a deferrable key held by several rows:
// PostgreSQL's, naming the key of the row written last.
func (t *table) keyViolation(u *uniqueIndex) error {
	var at uint64
	for _, ids := range u.more {
		for _, id := range ids {
			at = max(at, id)
		}
	}
	row, _ := t.rows.Get(at)
	return uniqueViolation(u, t, row)
}

// deferrableArbiter refuses ON CONFLICT whose arbiters (every key
// without a target) include a deferrable key, as PostgreSQL does.
func (t *table) deferrableArbiter(arbiters []*uniqueIndex) error {
	if t.dkeys == nil {
		return nil
	}
	if arbiters == nil {
		arbiters = t.uniques
	}
	for _, u := range arbiters {
		if u.deferrable {
			return pgerr.New(pgerr.ObjectNotInPrereqState, "ON CONFLICT does not support deferrable unique constraints/exclusion constraints as arbiters")
		}
	}
	return nil
}

// deferrableKey reports whether a table has a deferrable key of the name.
func (e *Engine) deferrableKey(name string) bool {
	for _, t := range e.tables {
		for _, u := range t.dkeys {
			if u.name == name {
				return true
			}
		}
		for _, x := range t.excl {
			if x.x.Deferrable && x.x.Name == name {
				return true
			}
		}
	}
	return false
}

// deferralSQL is what pg_get_constraintdef ends u's definition with.
func deferralSQL(u *uniqueIndex) string {
	d := sql.KeyDeferral{InitDeferred: u.initDeferred}
	ct := sql.CreateTable{DeferrableKeys: []sql.KeyDeferral{d}}
	return ct.DeferralSQL(0)
}

// deferLike makes u, new and empty, deferrable as was, which ALTER TABLE
// rebuilds it from.
func (u *uniqueIndex) deferLike(was *uniqueIndex) {
	if !was.deferrable {
		return
	}
	u.deferrable, u.initDeferred = true, was.initDeferred
	u.ints, u.pair = nil, false
	if u.m == nil {
		u.m = map[string]uint64{}
	}
}

// duplicatedKey is the error of a deferrable key that rows ALTER TABLE
// copied already repeat, as PostgreSQL's build of its index fails.
func (t *table) duplicatedKey() error {
	for _, u := range t.dkeys {
		if len(u.more) == 0 {
			continue
		}
		v := t.keyViolation(u).(*pgerr.Error)
		return &pgerr.Error{Code: pgerr.UniqueViolation,
			Message: fmt.Sprintf("could not create unique index %q", u.name),
			Detail:  strings.Replace(v.Detail, "already exists", "is duplicated", 1)}
	}
	return nil
}
