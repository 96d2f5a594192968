package sql

// A grantee written CURRENT_USER, CURRENT_ROLE or SESSION_USER stands
// for the role the session acts as (the one it logged in as, for
// SESSION_USER) when the statement runs, as PostgreSQL's get_rolespec_oid
// takes it: the ACL then names that role.

// SessionRoleNamer is a catalog that knows the session's roles.
type SessionRoleNamer interface {
	// SessionRoleName is the role special ("current_user",
	// "current_role" or "session_user") stands for, and whether the
	// catalog knows it.
	SessionRoleName(special string) (string, bool)
}

// sessionRole is the role special stands for, if the catalog knows it.
func (b *binder) sessionRole(special string) (string, bool) {
	n, ok := b.cat.(SessionRoleNamer)
	if !ok {
		return "", false
	}
	return n.SessionRoleName(special)
}
