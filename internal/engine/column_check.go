package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// The check of column privileges keeps no state: a statement of a role
// that is no superuser, bound while some column privilege is granted,
// records the columns it reads (sql.RefLog), and a relation on which the
// role lacks a privilege the statement needs is let through when the
// role holds it on the columns the statement uses, as PostgreSQL's
// ExecCheckRTEPerms does: SELECT on each column read (all of them for a
// whole-row reference, any one when the statement reads none, as
// count(*) does), INSERT on each column inserted into, UPDATE on each
// column SET assigns.

// checksColumns reports whether the session's statements record the
// columns they read; the caller holds the engine's lock.
func (s *Session) checksColumns() bool {
	if s.role == "" || len(s.e.colGrants) == 0 {
		return false
	}
	r := s.e.roles[s.role]
	return r == nil || !r.superuser
}

// colNeeds are the columns of one relation a statement uses, by
// position.
type colNeeds struct {
	sel []int
	// whole is set when it reads the relation's whole row; anyRead when
	// reading none of its columns still needs SELECT on one of them (a
	// relation of FROM), not when it is the target of INSERT, UPDATE or
	// DELETE, whose SELECT only the columns it reads need.
	whole, anyRead bool
	ins, upd       []int
}

// columnsRead are the columns of rel the statement bound with rec reads.
func (rec *recorder) columnsRead(rel string) colNeeds {
	var n colNeeds
	if rec == nil || rec.refs == nil {
		return n
	}
	return columnsReadIn(append([]*sql.RefLog{rec.refs}, rec.invRefs...), rel)
}

// columnsReadIn are the columns of rel the references logs record read.
func columnsReadIn(logs []*sql.RefLog, rel string) colNeeds {
	var n colNeeds
	for _, l := range logs {
		for _, o := range append(l.Seq, l.Using...) {
			if o.Table == rel && o.Col >= 0 && !slices.Contains(n.sel, o.Col) {
				n.sel = append(n.sel, o.Col)
			}
		}
		n.whole = n.whole || slices.Contains(l.Whole, rel)
	}
	return n
}

// reads reports whether the statement reads a column of the relation.
func (n colNeeds) reads() bool { return n.whole || len(n.sel) > 0 }

// allowedCols is allowed, letting through a relation on which the role
// holds, on the columns need names, the privileges of priv it lacks on
// the relation; the caller holds the engine's lock.
func (s *Session) allowedCols(rec *recorder, name string, priv sql.Privilege, need colNeeds) error {
	err := s.allowed(name, priv)
	if err == nil || rec == nil || rec.refs == nil {
		return err
	}
	e := s.e
	a := e.colGrants[name]
	if a == nil || s.schemaAllowed(name) != nil {
		return err
	}
	held := e.heldRoles(s.role)
	g := e.relGrants(name)
	have := g[""]
	for _, h := range held {
		have |= g[h]
	}
	missing := priv &^ have
	if missing&^(sql.PrivSelect|sql.PrivInsert|sql.PrivUpdate) != 0 {
		return err
	}
	rel, ok := e.Relation(name)
	if !ok {
		return err
	}
	holds := func(p sql.Privilege, cols []int, all, anyOne bool) bool {
		if all {
			for _, c := range rel.Cols {
				if a.held(c.Name, held)&p == 0 {
					return false
				}
			}
			return true
		}
		if len(cols) == 0 {
			if !anyOne {
				return true
			}
			for _, c := range rel.Cols {
				if a.held(c.Name, held)&p != 0 {
					return true
				}
			}
			return false
		}
		for _, i := range cols {
			if i >= len(rel.Cols) || a.held(rel.Cols[i].Name, held)&p == 0 {
				return false
			}
		}
		return true
	}
	if missing&sql.PrivSelect != 0 && !holds(sql.PrivSelect, need.sel, need.whole, need.anyRead) {
		return err
	}
	if missing&sql.PrivInsert != 0 && !holds(sql.PrivInsert, need.ins, false, true) {
		return err
	}
	if missing&sql.PrivUpdate != 0 && !holds(sql.PrivUpdate, need.upd, false, true) {
		return err
	}
	return nil
}

// mergeNeeds are the columns of its table MERGE uses, as PostgreSQL
// checks them: SELECT on those its join condition and clauses read (on
// any one when they read none: the join reads the table), UPDATE on those its UPDATE actions assign, INSERT on those its INSERT
// actions name (any one for DEFAULT VALUES).
func mergeNeeds(m *sql.Merge, rec *recorder) colNeeds {
	need := rec.columnsRead(m.Table)
	need.anyRead = true
	for _, c := range m.Clauses {
		for _, i := range c.SetCols {
			if !slices.Contains(need.upd, i) {
				need.upd = append(need.upd, i)
			}
		}
		for _, i := range c.InsCols {
			if !slices.Contains(need.ins, i) {
				need.ins = append(need.ins, i)
			}
		}
	}
	return need
}
