package engine

import "github.com/deltaview/deltaview/internal/pgerr"

// A relation named qualified in a schema on which the session's role
// holds no USAGE is 42501 in PostgreSQL whether or not it exists, as its
// name lookup checks the schema first, at the name's position. A
// relation that exists is refused after binding (schemaAllowed); one
// that does not is refused here, as its name is resolved, rather than
// reported missing (42P01), which would tell what the schema holds.

// usageUser is the role whose USAGE on a schema a name the session's
// statement writes qualified needs: "" for a superuser, a store's
// statement and a view's names, which are checked elsewhere or not at
// all.
func (s *Session) usageUser() string {
	if s.restoring || s.asViewOwner || s.mustBeSuperuser("") == nil {
		return ""
	}
	return s.role
}

// mayLookIn returns 42501 when schema, written as name's qualifier, is a
// schema n's user holds no USAGE on and name is no relation of it.
func (n nameScope) mayLookIn(schema, name string) error {
	if n.user == "" || schema == "" || n.e.userRelation(schemaKey(schema, name)) || n.e.pathUsable(n.user, schema) {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", schema)
}
