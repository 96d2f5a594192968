package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// GRANT and REVOKE on schemas and the database by a role that is no
// superuser, as PostgreSQL's restrict_and_check_grant decides them: the
// object's owner, and a role holding its owner's privileges, grant as the
// owner; a role holding a grant option on it grants as itself
// (schema_grantor.go, database_grantor.go); a role holding some privilege
// on it without the option changes nothing, with a WARNING; a role
// holding none gets 42501.

// withWarnings is res after the WARNINGs warnings, which come first.
func withWarnings(res Result, warnings []string) Result {
	if len(warnings) == 0 {
		return res
	}
	levels := map[int]string{}
	for i := range warnings {
		levels[i] = "WARNING"
	}
	for i, l := range res.NoticeLevels {
		levels[i+len(warnings)] = l
	}
	res.Notices = append(slices.Clip(warnings), res.Notices...)
	res.NoticeLevels = levels
	return res
}

// grantSchemaAsRole runs GRANT or REVOKE … ON SCHEMA for the session's
// role, which grants as the schema's owner or as a role holding grant
// options on it (schema_grantor.go).
func (s *Session) grantSchemaAsRole(g *sql.GrantSchema) (Result, error) {
	if s.mustBeSuperuser("") == nil {
		return s.e.grantSchema(g)
	}
	return s.e.grantSchemas(g, s.userName())
}

// grantDatabaseAsRole runs GRANT or REVOKE … ON DATABASE for the
// session's role, which grants as the database's owner (the superuser) or
// as a role holding grant options on it (database_grantor.go).
func (s *Session) grantDatabaseAsRole(g *sql.GrantDatabase) (Result, error) {
	if s.mustBeSuperuser("") == nil {
		return s.e.grantDatabase(g)
	}
	return s.e.grantDatabaseBy(g, s.userName())
}
