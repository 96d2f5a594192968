package engine

import "github.com/deltaview/deltaview/internal/sql"

// A FOREIGN KEY declared DEFERRABLE is deferred, as in PostgreSQL, when
// SET CONSTRAINTS (its name, else ALL) said DEFERRED in the transaction
// block, or, without either, when it is INITIALLY DEFERRED. A deferred
// constraint's checks (a referencing row's key present, a NO ACTION key
// gone and still referenced) are left at the end of the statement: the
// transaction is marked (txn.fkCheck) and its commit checks every
// deferrable constraint over the whole transaction's changes, before
// fireAtCommit's views step, so that a failing commit rolls back with
// the views untouched. SET CONSTRAINTS … IMMEDIATE checks at once the
// constraints it makes immediate. Referential actions (CASCADE, SET
// NULL, SET DEFAULT) and RESTRICT never wait, as in PostgreSQL.

// fkDeferred reports whether l's checks wait for the commit, for the
// session whose statement runs.
func (e *Engine) fkDeferred(l *fkLink) bool {
	if e.firer == nil || e.tx == nil || !e.tx.explicit {
		return false
	}
	return e.firer.fkDeferred(l.fk)
}

func (s *Session) fkDeferred(fk *sql.ForeignKey) bool {
	if !fk.Deferrable {
		return false
	}
	if d, ok := s.cons.fks[fk.Name]; ok {
		return d
	}
	if s.cons.all != 0 {
		return s.cons.all > 0
	}
	return fk.InitDeferred
}

// deferrableForeignKey reports whether a table has a DEFERRABLE foreign
// key of the name.
func (e *Engine) deferrableForeignKey(name string) bool {
	for _, t := range e.tables {
		for i := range t.def.ForeignKeys {
			if fk := &t.def.ForeignKeys[i]; fk.Name == name && fk.Deferrable {
				return true
			}
		}
	}
	return false
}
