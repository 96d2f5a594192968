package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// DROP SCHEMA by a role that is no superuser keeps no state of its own:
// as in PostgreSQL, the schema's owner, and a role holding its
// privileges, may drop it (with CASCADE, the objects in it whoever owns
// them); another gets 42501 `must be owner of schema …`. The names are
// checked in order, a missing one let through for the statement to
// report, as PostgreSQL looks each up before its ownership.

// mayDropSchema checks d for the session's role.
func (s *Session) mayDropSchema(d *sql.DropSchema) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	for _, n := range d.Names {
		sc := s.e.schemas[n]
		if sc == nil {
			if d.IfExists {
				continue
			}
			return nil
		}
		if !s.e.hasPrivsOf(s.role, sc.owner) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of schema %s", n)
		}
	}
	return nil
}
