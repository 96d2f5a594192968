package engine

import "github.com/deltaview/deltaview/internal/pgerr"

// A relation named qualified in a schema on which the session's role
// holds no USAGE is 42501 in PostgreSQL whether or not it exists, as its
// name lookup checks the schema first (LookupExplicitNamespace): it is
// refused here, as its name is resolved, at the name's position where
// PostgreSQL's parse analysis looks it up (sql.QualifyNames), rather
// than reported missing (42P01), which would tell what the schema holds.

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
// schema n's user holds no USAGE on.
func (n nameScope) mayLookIn(schema, name string) error {
	if n.user == "" || schema == "" || n.e.pathUsable(n.user, schema) {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", schema)
}

// schemasUnusable are the schemas role holds no USAGE on, which a name
// qualified by one cannot be looked up in; none for "" (checks none).
func (e *Engine) schemasUnusable(role string) map[string]bool {
	if role == "" {
		return nil
	}
	var out map[string]bool
	for n := range e.schemas {
		if !e.pathUsable(role, n) {
			if out == nil {
				out = map[string]bool{}
			}
			out[n] = true
		}
	}
	return out
}

// MayLookIn implements sql.UsageChecker.
func (n nameScope) MayLookIn(schema string) error { return n.mayLookIn(schema, "") }

// MayCreate implements sql.CreationChecker.
func (n nameScope) MayCreate(key string) error {
	if n.user == "" {
		return nil
	}
	return n.e.mayCreateAs(n.user, key)
}
