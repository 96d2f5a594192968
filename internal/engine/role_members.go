package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Role membership (pg_auth_members) keeps, in each member role, the roles
// GRANT role TO member made it a member of: memberOf, a list replaced on
// every change and never edited in place, so that a transaction block's
// image of the role (txddl_image.go) undoes a GRANT or REVOKE with the
// rest of the role. A member holds the privileges of the roles it belongs
// to, directly or through others, unless NOINHERIT stops it (heldRoles,
// role_inherit.go), may SET ROLE to them, and pg_has_role answers so. A store keeps each membership
// as the GRANT that made it (KindRoleMember), run again at open after
// the roles.

// roleGrant is a role's membership in another.
type roleGrant struct {
	role, grantor string
	admin         bool
}

// KindRoleMember is the kind of a role's membership in the store: a
// GRANT role TO role statement, run after the roles are loaded.
const KindRoleMember RelKind = "role membership"

func memberStoreName(role, member string) string { return "membership of " + member + " in " + role }

// heldRoles returns name and the roles whose privileges it holds: those
// it is a member of, directly or through other roles, as far as each role
// on the way inherits (a NOINHERIT role's memberships give it nothing
// until SET ROLE, as PostgreSQL's has_privs_of_role). The caller holds
// the engine's lock.
func (e *Engine) heldRoles(name string) []string {
	return e.roleClosure(name, true)
}

// memberRoles returns name and every role it is a member of, directly or
// through other roles, inheriting or not: those it may SET ROLE to.
func (e *Engine) memberRoles(name string) []string {
	return e.roleClosure(name, false)
}

func (e *Engine) roleClosure(name string, privs bool) []string {
	out := []string{name}
	for i := 0; i < len(out); i++ {
		r := e.roles[out[i]]
		if r == nil || privs && r.noInherit {
			continue
		}
		for _, g := range r.memberOf {
			if !slices.Contains(out, g.role) {
				out = append(out, g.role)
			}
		}
	}
	return out
}

// hasPrivsOf reports whether member holds the privileges of role.
func (e *Engine) hasPrivsOf(member, role string) bool {
	return slices.Contains(e.heldRoles(member), role)
}

// isMemberOf reports whether member is role or a member of it.
func (e *Engine) isMemberOf(member, role string) bool {
	return slices.Contains(e.memberRoles(member), role)
}

// isAdminOf reports whether member holds role's ADMIN OPTION, itself or
// through a role it is a member of.
func (e *Engine) isAdminOf(member, role string) bool {
	for _, h := range e.memberRoles(member) {
		if r := e.roles[h]; r != nil {
			for _, g := range r.memberOf {
				if g.role == role && g.admin {
					return true
				}
			}
		}
	}
	return false
}

// grantRole runs GRANT role TO role and REVOKE role FROM role.
func (s *Session) grantRole(g *sql.GrantRole) (Result, error) {
	e := s.e
	tag := "GRANT ROLE"
	if g.Revoke {
		tag = "REVOKE ROLE"
	}
	members := make([]string, len(g.Members))
	for i, m := range g.Members {
		if m == "" {
			m = s.userName()
		}
		if _, ok := e.roles[m]; !ok {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", m)
		}
		members[i] = m
	}
	grantor := s.userName()
	if g.Grantor != "" {
		if _, ok := e.roles[g.Grantor]; !ok && g.Grantor != SuperuserName {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", g.Grantor)
		}
		grantor = g.Grantor
	}
	var res Result
	for _, name := range g.Granted {
		if _, ok := e.roles[name]; !ok {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", name)
		}
		if s.mustBeSuperuser("") != nil && !e.isAdminOf(s.userName(), name) {
			return Result{}, pgerr.New(pgerr.InsufficientPrivilege, "must have admin option on role %q", name)
		}
		for _, m := range members {
			r := e.roles[m]
			at := slices.IndexFunc(r.memberOf, func(x roleGrant) bool { return x.role == name })
			list := slices.Clone(r.memberOf)
			switch {
			case g.Revoke && at < 0:
				res.warn(fmt.Sprintf("role %q is not a member of role %q", m, name))
				continue
			case g.Revoke && g.Admin:
				list[at].admin = false
			case g.Revoke:
				list = slices.Delete(list, at, at+1)
			case e.isMemberOf(name, m):
				return Result{}, pgerr.New("0LP01", "role %q is a member of role %q", name, m)
			case at >= 0 && (!g.Admin || list[at].admin):
				res.Notices = append(res.Notices, fmt.Sprintf("role %q is already a member of role %q", m, name))
				continue
			case at >= 0:
				list[at].admin = true
			default:
				list = append(list, roleGrant{role: name, grantor: grantor, admin: g.Admin})
			}
			if err := e.storeMembership(m, name, list); err != nil {
				return Result{}, err
			}
			r.memberOf = list
		}
	}
	res.Tag = tag
	return res, nil
}

// storeMembership records member's membership in role as list has it.
func (e *Engine) storeMembership(member, role string, list []roleGrant) error {
	if e.store == nil {
		return nil
	}
	name := memberStoreName(role, member)
	if err := e.store.Drop([]string{name}); err != nil {
		return err
	}
	at := slices.IndexFunc(list, func(x roleGrant) bool { return x.role == role })
	if at < 0 {
		return nil
	}
	text := "GRANT " + sql.QuoteIdent(role) + " TO " + sql.QuoteIdent(member)
	if list[at].admin {
		text += " WITH ADMIN OPTION"
	}
	text += " GRANTED BY " + sql.QuoteIdent(list[at].grantor)
	return e.store.Create(&StoredRelation{Name: name, Kind: KindRoleMember, SQL: text})
}

// dropMemberships forgets the memberships of the roles gone and in them,
// in memory and in the store; those the roles gone granted are kept as
// granted by the built-in superuser, so that the store's statements name
// roles that exist.
func (e *Engine) dropMemberships(gone []string) error {
	for _, r := range e.roles {
		if slices.Contains(gone, r.name) {
			continue
		}
		for i, g := range r.memberOf {
			if !slices.Contains(gone, g.grantor) || slices.Contains(gone, g.role) {
				continue
			}
			list := slices.Clone(r.memberOf)
			list[i].grantor = SuperuserName
			if err := e.storeMembership(r.name, g.role, list); err != nil {
				return err
			}
			r.memberOf = list
		}
	}
	for _, r := range e.roles {
		for _, g := range r.memberOf {
			if !slices.Contains(gone, g.role) && !slices.Contains(gone, r.name) {
				continue
			}
			if e.store != nil {
				if err := e.store.Drop([]string{memberStoreName(g.role, r.name)}); err != nil {
					return err
				}
			}
		}
	}
	for _, r := range e.roles {
		if slices.ContainsFunc(r.memberOf, func(g roleGrant) bool { return slices.Contains(gone, g.role) }) {
			r.memberOf = slices.DeleteFunc(slices.Clone(r.memberOf), func(g roleGrant) bool { return slices.Contains(gone, g.role) })
		}
	}
	return nil
}
