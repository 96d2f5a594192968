package engine

import (
	"maps"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// REFRESH MATERIALIZED VIEW runs as the view's owner, as PostgreSQL's
// does: its owner (or a role holding the owner's privileges) may refresh
// it, and the owner needs SELECT on each relation the view reads (on the
// relation, or on some column of it: PostgreSQL checks the columns the
// query reads, which the catalog does not keep per view). A view kept up
// to date by deltaview already equals its query, but a REFRESH that
// PostgreSQL would refuse is refused here too. This file keeps no state.

// allowedOwner checks that the session's role may refresh the view: it
// holds the privileges of its owner.
func (s *Session) allowedOwner(name string) error {
	return s.mustOwnRel(name, "materialized view")
}

// ownerMayRead returns 42501 unless the owner of the materialized view
// name holds SELECT on what its query reads.
func (e *Engine) ownerMayRead(name string) error {
	owner := e.relOwner(name)
	if r := e.roles[owner]; owner == SuperuserName || r != nil && r.superuser {
		return nil
	}
	held := e.heldRoles(owner)
	for _, rel := range e.deps[name] {
		kind, ok := e.kindOf(rel)
		if !ok || slices.Contains(held, e.relOwner(rel)) && e.ownerHoldsAll(rel) {
			continue
		}
		g := e.relGrants(rel)
		have := g[""]
		for _, h := range held {
			have |= g[h]
		}
		if have&sql.PrivSelect != 0 {
			continue
		}
		cols := e.colGrants[rel]
		if slices.ContainsFunc(slices.Collect(maps.Keys(cols)), func(c string) bool { return cols.held(c, held)&sql.PrivSelect != 0 }) {
			continue
		}
		what := map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}[kind]
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", what, e.bareName(rel))
	}
	return nil
}
