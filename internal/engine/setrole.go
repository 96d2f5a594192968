package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
)

// SET ROLE and SET SESSION AUTHORIZATION are the settings role and
// session_authorization, so that SET LOCAL, RESET, ROLLBACK and
// savepoints treat them as PostgreSQL does. The session user is the role
// the session logged in as (SetRole: a server's login, the Go API's
// SessionAs; none for the built-in superuser), or the one SET SESSION
// AUTHORIZATION chose; the current user, whose privileges statements
// need, is the role SET ROLE chose, or else the session user. A role may SET
// ROLE to itself and to the roles it is a member of (role_members.go), a
// superuser to any role; only a login role that is a superuser (or the built-in one)
// may SET SESSION AUTHORIZATION to another role.

// roleID is the session's form of a role's name: "" for the built-in
// superuser, which is named SuperuserName unless a role of the catalog
// has that name.
func (s *Session) roleID(name string) string {
	if name == SuperuserName && !s.superuserIsRole {
		return ""
	}
	return name
}

// sessionUserName is session_user: the session authorization set, or
// the login role.
func (s *Session) sessionUserName() string {
	if v := s.gucs.local["session_authorization"]; v != "" {
		return v
	}
	if v := s.gucs.vals["session_authorization"]; v != "" {
		return v
	}
	if s.login == "" {
		return SuperuserName
	}
	return s.login
}

// applyRole sets the role the session acts as from its settings.
func (s *Session) applyRole() {
	cur, _ := s.setting("role")
	if cur == "none" {
		cur = s.sessionUserName()
	}
	s.role = s.roleID(cur)
	if n := len(s.definers); n > 0 {
		s.role = s.definers[n-1] // a SECURITY DEFINER routine's owner
	}
}

// checkRoleSetting checks SET ROLE name (setting role) or SET SESSION
// AUTHORIZATION name (session_authorization) as PostgreSQL does: the
// role must exist (22023) and the session may take it (42501).
func (s *Session) checkRoleSetting(setting, name string) error {
	if setting == "role" && name == "none" {
		return nil
	}
	e := s.e
	_, exists := e.roles[name]
	if !exists && name != SuperuserName {
		return pgerr.New(pgerr.InvalidParameter, "role %q does not exist", name)
	}
	superuser := func(id string) bool {
		if id == "" {
			return true
		}
		q := e.roles[id]
		return q != nil && q.superuser
	}
	if setting == "role" {
		if name != s.sessionUserName() && !superuser(s.roleID(s.sessionUserName())) && !e.isMemberOf(s.sessionUserName(), name) {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set role %q", name)
		}
	} else if name != s.loginName() && !superuser(s.login) {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set session authorization")
	}
	if name == SuperuserName {
		s.superuserIsRole = exists
	}
	return nil
}

// loginName is the name of the role the session logged in as.
func (s *Session) loginName() string {
	if s.login == "" {
		return SuperuserName
	}
	return s.login
}
