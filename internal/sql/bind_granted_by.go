package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// GRANTED BY of a GRANT or REVOKE on objects. PostgreSQL 15 accepts it
// for SQL's sake only: the role named must exist and be the current user
// ("grantor must be current user", 0A000, otherwise), and it is checked
// before the objects are looked up. A store's own statements name the
// grantor of each item they make this way (column_acl.go's), which the
// engine then grants as.

// GrantorChecker is a catalog that knows the session's roles, for GRANTED
// BY.
type GrantorChecker interface {
	// GrantedBy checks GRANTED BY of a statement: name is the role named,
	// or one of "current_user", "current_role", "session_user" or
	// "public" when special. It returns the role to grant as when it is
	// not the current user (a store's statement), else "".
	GrantedBy(name string, special string) (string, error)
}

// grantedBy checks s's GRANTED BY, if any, and returns the role the
// statement then grants as ("" for the current user).
func (b *binder) grantedBy(s *pg_query.GrantStmt) (string, error) {
	r := s.Grantor
	if r == nil {
		return "", nil
	}
	gc, ok := b.cat.(GrantorChecker)
	if !ok {
		return "", nil
	}
	switch r.Roletype {
	case pg_query.RoleSpecType_ROLESPEC_CSTRING:
		return gc.GrantedBy(r.Rolename, "")
	case pg_query.RoleSpecType_ROLESPEC_CURRENT_USER:
		return gc.GrantedBy("", "current_user")
	case pg_query.RoleSpecType_ROLESPEC_CURRENT_ROLE:
		return gc.GrantedBy("", "current_role")
	case pg_query.RoleSpecType_ROLESPEC_SESSION_USER:
		return gc.GrantedBy("", "session_user")
	}
	return gc.GrantedBy("", "public")
}
