package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
)

// Relations in use by the running queries of a session. The state kept
// is Session.active: the recorders of the queries that PL/pgSQL code is
// running, innermost last; the session's statement's own recorder
// (Session.rec) is the outermost. A catalog change in a function called
// by one of them may not alter or drop a table or materialized view that
// one of them reads or writes (or reads with an ancestor named without
// ONLY: recorder.kids), as PostgreSQL refuses it (55006): the running
// plan has its rows and its shape. A FOR loop's query and an open
// cursor's stay in use while the loop runs or until CLOSE (HoldLast),
// which may come after the call returns (portals.go). It
// may rename one (RENAME TO, SET SCHEMA, RENAME COLUMN), as PostgreSQL
// lets it: the statement holds its tables by identity
// (table_identity.go), and the relation stays in use under its new name
// (followRenamed).

var _ plpgsql.Holder = (*plRuntime)(nil)

// HoldLast implements plpgsql.Holder: a FOR loop's query keeps its
// relations in use while the loop's body runs, and an open cursor's until
// CLOSE, as in PostgreSQL. Cursors close in any order, so the function
// returned lets go of this query's recorder wherever it stands.
func (rt *plRuntime) HoldLast() func() {
	s, r := rt.s, rt.last
	if r == nil {
		return func() {}
	}
	s.active = append(s.active, r)
	return func() { s.dropActive(r) }
}

// dropActive forgets the innermost entry of r in Session.active: the
// query that PL/pgSQL code runs, which Run recorded, or a cursor's.
func (s *Session) dropActive(r *recorder) {
	for i := len(s.active) - 1; i >= 0; i-- {
		if s.active[i] == r {
			s.active = slices.Delete(s.active, i, i+1)
			return
		}
	}
}

// inUse reports whether key names a table or materialized view that a
// running query of the session reads or writes.
func (s *Session) inUse(key string) bool {
	if _, ok := s.e.tables[key]; !ok {
		if _, ok := s.e.views[key]; !ok {
			return false
		}
	}
	if s.rec != nil && (s.rec.seen[key] || s.rec.kids[key]) {
		return true
	}
	for _, r := range s.active {
		if r.seen[key] || r.kids[key] {
			return true
		}
	}
	return false
}

// anyInUse reports whether a query is running around the code.
func (s *Session) anyInUse() bool {
	return len(s.active) > 0 || s.rec != nil && len(s.rec.seen) > 0
}

// errInUse is PostgreSQL's refusal of the command what on the relation
// keyed key while a query of the session uses it.
func (s *Session) errInUse(what, key string) error {
	return pgerr.New("55006", "cannot %s %q because it is being used by active queries in this session", what, s.e.bareName(key))
}

// inUseCheck refuses the catalog change b when it alters a relation in
// use (before it runs).
func (s *Session) inUseCheck(b sql.Bound) error {
	if !s.anyInUse() {
		return nil
	}
	check := func(what string, keys ...string) error {
		for _, k := range keys {
			if s.inUse(k) {
				return s.errInUse(what, k)
			}
		}
		return nil
	}
	switch b := b.(type) {
	case *sql.AlterTable:
		if renames(b) {
			return nil // the running statements hold the table by identity (table_identity.go)
		}
		if b.Only {
			return check("ALTER TABLE", b.Table)
		}
		// It reaches the table's inheritance descendants too.
		return check("ALTER TABLE", append([]string{b.Table}, s.e.inheritDescendants(b.Table)...)...)
	case *sql.AlterRowSecurity:
		return check("ALTER TABLE", b.Table)
	case *sql.AlterRelOwner:
		return check("ALTER TABLE", b.Name)
	case *sql.AlterInherit:
		return check("ALTER TABLE", b.Child) // PostgreSQL checks the table altered only
	case *sql.AttachPartition:
		if b.Table != nil && b.Partition != nil {
			return check("ALTER TABLE", b.Table.Name, b.Partition.Name)
		}
	case *sql.DetachPartition:
		return check("ALTER TABLE", b.Parent, b.Name)
	case *sql.MoveRelation:
	case *sql.CreateIndex:
		return check("CREATE INDEX", b.Table)
	case *sql.Refresh:
		return check("REFRESH MATERIALIZED VIEW", b.View)
	case *sql.Drop:
		if b.Kind == sql.DropTable || b.Kind == sql.DropMatView {
			return check("DROP TABLE", b.Names...)
		}
	}
	return nil
}

// renames reports whether a is a rename of the table (RENAME TO, SET
// SCHEMA) or of one of its columns, which PostgreSQL lets a function do to
// a table the running query uses.
func renames(a *sql.AlterTable) bool {
	return a.RenamedFrom != "" || a.New != nil && a.New.Name != a.Table
}

// followRenamed keeps the relation that b renamed in use under its new
// key, for the running queries that used it: a later ALTER or DROP of it
// by the new name is refused as by the old. The old key stays in use too,
// as a rename undone by an EXCEPTION handler or ROLLBACK TO gives it back.
// It returns the old key when b renamed a relation in use, "" otherwise.
func (s *Session) followRenamed(b sql.Bound) string {
	from, to := "", ""
	switch b := b.(type) {
	case *sql.AlterTable:
		if b.New != nil {
			from, to = b.Table, b.New.Name
		}
	case *sql.MoveRelation:
		from, to = b.Key, b.NewKey
	}
	if from == to || from == "" || !s.anyInUse() {
		return ""
	}
	follow := func(r *recorder) {
		if r.seen[from] {
			r.seen[to] = true
		}
		if r.kids[from] {
			if r.kids == nil {
				r.kids = map[string]bool{}
			}
			r.kids[to] = true
		}
	}
	if s.rec != nil {
		follow(s.rec)
	}
	for _, r := range s.active {
		follow(r)
	}
	return from
}

// droppedInUse is the refusal of a catalog change that dropped a
// relation in use by a path inUseCheck does not see (CASCADE, DROP
// SCHEMA, DROP TYPE … CASCADE), checked after it ran; nil when none.
func (s *Session) droppedInUse(had map[string]string) error {
	for k, name := range had {
		_, t := s.e.tables[k]
		_, v := s.e.views[k]
		if !t && !v {
			return pgerr.New("55006", "cannot DROP TABLE %q because it is being used by active queries in this session", name)
		}
	}
	return nil
}

// inUseNow are the relations in use, by key, with the name messages give
// them, for droppedInUse; nil when no query is running around the code.
func (s *Session) inUseNow() map[string]string {
	if !s.anyInUse() {
		return nil
	}
	m := map[string]string{}
	add := func(r *recorder) {
		for k := range r.seen {
			if s.inUse(k) {
				m[k] = s.e.bareName(k)
			}
		}
		for k := range r.kids {
			if s.inUse(k) {
				m[k] = s.e.bareName(k)
			}
		}
	}
	if s.rec != nil {
		add(s.rec)
	}
	for _, r := range s.active {
		add(r)
	}
	return m
}
