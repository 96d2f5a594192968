package engine

import "github.com/deltaview/deltaview/internal/sql"

// A schema of the search path on which the session's role holds no USAGE
// is left out of the path, as PostgreSQL's recomputeNamespacePath leaves
// it: an unqualified name then resolves in the next schema, or is 42P01,
// where a qualified one is 42501.

// pathUsable reports whether role may use the schema name on its
// search path: a superuser, the schema's owner, a role granted USAGE
// (directly, through PUBLIC or a role it holds the privileges of); ""
// (the store's statements, restored as a superuser) any.
func (e *Engine) pathUsable(role, name string) bool {
	sc := e.schemas[name]
	if role == "" || sc == nil || e.isSuperuser(role) || sc.heldGrants()[""]&sql.PrivUsage != 0 {
		return true
	}
	for _, h := range e.heldRoles(role) {
		if sc.ownerHolds(h) || sc.heldGrants()[h]&sql.PrivUsage != 0 {
			return true
		}
	}
	return false
}
