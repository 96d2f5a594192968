package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// GrantedBy checks GRANTED BY of a GRANT or REVOKE on objects as
// PostgreSQL 15 does (sql.GrantorChecker): the role must exist and be the
// current user. A store's statement, run again at open, names the grantor
// of the items it makes, which the statement then grants as.
func (r *recorder) GrantedBy(name, special string) (string, error) {
	s := r.session
	if s == nil {
		return "", nil
	}
	switch special {
	case "public":
		return "", pgerr.New(pgerr.UndefinedObject, "role %q does not exist", "public")
	case "current_user", "current_role":
		return "", nil
	case "session_user":
		name = s.sessionUserName()
	}
	if s.restoring {
		// A routine's statements run before the roles are back, and may
		// name a grantor dropped since (routine_grantor.go).
		return name, nil
	}
	if _, ok := s.e.roles[name]; !ok && name != SuperuserName {
		return "", pgerr.New(pgerr.UndefinedObject, "role %q does not exist", name)
	}
	if name != s.userName() {
		return "", pgerr.New(pgerr.FeatureNotSupported, "grantor must be current user")
	}
	return "", nil
}

var _ sql.GrantorChecker = (*recorder)(nil)

// withItem is items after grantor gives grantee privs, as a store's
// statement restores an item it recorded: added to the item of that
// grantee and grantor, or new and last.
func withItem(items []aclItem, grantee, grantor string, privs sql.Privilege) []aclItem {
	for i, it := range items {
		if it.grantee == grantee && it.grantor == grantor {
			out := append([]aclItem(nil), items...)
			out[i].privs |= privs
			return out
		}
	}
	return append(append([]aclItem(nil), items...), aclItem{grantee: grantee, grantor: grantor, privs: privs})
}

// SessionRoleName is the role a grantee written CURRENT_USER,
// CURRENT_ROLE or SESSION_USER stands for.
func (r *recorder) SessionRoleName(special string) (string, bool) {
	s := r.session
	if s == nil {
		return "", false
	}
	if special == "session_user" {
		return s.sessionUserName(), true
	}
	return s.userName(), true
}

var _ sql.SessionRoleNamer = (*recorder)(nil)
