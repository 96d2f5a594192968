package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// GrantRole is GRANT role, … TO role, … [WITH ADMIN OPTION] or REVOKE
// [ADMIN OPTION FOR] role, … FROM role, …: the membership of each member
// in each granted role.
type GrantRole struct {
	Revoke  bool
	Granted []string
	Members []string
	// Admin is WITH ADMIN OPTION, or for a REVOKE, ADMIN OPTION FOR: only
	// the option goes.
	Admin bool
	// Grantor is GRANTED BY's role; empty for the current user.
	Grantor string
}

func (*GrantRole) bound() {}

// bindGrantRole binds GRANT role TO role and REVOKE role FROM role.
func (b *binder) bindGrantRole(s *pg_query.GrantRoleStmt) (Bound, error) {
	verb := "GRANT"
	if !s.IsGrant {
		verb = "REVOKE"
	}
	g := &GrantRole{Revoke: !s.IsGrant}
	for _, n := range s.Opt {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		if d.Defname != "admin" {
			return nil, b.stmt.errf(d.Location, pgerr.FeatureNotSupported, "%s … %s OPTION is not supported", verb, d.Defname).
				WithHint("roles are granted with or without ADMIN OPTION")
		}
		g.Admin = !s.IsGrant || d.Arg == nil || d.Arg.GetBoolean() == nil || d.Arg.GetBoolean().Boolval
	}
	for _, n := range s.GrantedRoles {
		if ap := n.GetAccessPriv(); ap != nil {
			g.Granted = append(g.Granted, ap.PrivName)
		}
	}
	for _, n := range s.GranteeRoles {
		r := n.GetRoleSpec()
		switch {
		case r == nil:
			continue
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_CSTRING:
			g.Members = append(g.Members, r.Rolename)
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_PUBLIC:
			return nil, b.stmt.errf(r.Location, pgerr.UndefinedObject, "role \"public\" does not exist")
		default:
			g.Members = append(g.Members, "") // CURRENT_USER, SESSION_USER: the engine's current user
		}
	}
	if r := s.Grantor; r != nil {
		if r.Roletype != pg_query.RoleSpecType_ROLESPEC_CSTRING {
			return nil, b.stmt.errf(r.Location, pgerr.FeatureNotSupported, "%s … GRANTED BY takes a role's name", verb)
		}
		g.Grantor = r.Rolename
	}
	return g, nil
}
