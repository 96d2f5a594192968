package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The owner of a relation, and the roles that hold its privileges
// (GRANT role, inheriting), may drop it and alter a sequence, as
// PostgreSQL's pg_class_ownercheck allows; other roles need a superuser.
// This file keeps no state: it reads owners (owner.go) and memberships.

// mustOwnRelations returns an error (42501 "must be owner of table t")
// unless the session's role is a superuser or holds the privileges of
// the owner of each relation named that exists as the kind the statement
// names; a relation missing or of another kind is left for the statement
// to report, as PostgreSQL reports those before ownership.
func (s *Session) mustOwnRelations(names []string, kind sql.DropKind, seq bool) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	e := s.e
	for _, name := range names {
		what := "sequence"
		if seq {
			if e.seqs[name] == nil {
				continue
			}
		} else {
			k, ok := e.kindOf(name)
			if !ok || k != kind {
				continue
			}
			what = map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}[kind]
		}
		if err := s.schemaAllowed(name); err != nil {
			return err
		}
		if !e.hasPrivsOf(s.role, e.relOwner(name)) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", what, e.bareName(name))
		}
	}
	return nil
}
