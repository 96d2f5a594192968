package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The privileges of a database, a set of their own: CREATE (PrivCreate),
// CONNECT and TEMPORARY.
const (
	PrivConnect Privilege = 1 << 0
	PrivTemp    Privilege = 1 << 1
	// PrivDatabase is ALL on a database.
	PrivDatabase = PrivCreate | PrivConnect | PrivTemp
)

// GrantDatabase is GRANT or REVOKE CREATE | CONNECT | TEMPORARY | ALL ON
// DATABASE names TO | FROM roles.
type GrantDatabase struct {
	Revoke    bool
	Privs     Privilege
	Databases []string
	Roles     []string // "" for PUBLIC
}

func (*GrantDatabase) bound() {}

func (b *binder) bindGrantDatabase(s *pg_query.GrantStmt, verb string) (Bound, error) {
	g := &GrantDatabase{Revoke: !s.IsGrant}
	if len(s.Privileges) == 0 {
		g.Privs = PrivDatabase
	}
	for _, n := range s.Privileges {
		switch p := n.GetAccessPriv(); p.GetPrivName() {
		case "create":
			g.Privs |= PrivCreate
		case "connect":
			g.Privs |= PrivConnect
		case "temporary", "temp":
			g.Privs |= PrivTemp
		default:
			return nil, pgerr.New("0LP01", "invalid privilege type %s for database", strings.ToUpper(p.GetPrivName()))
		}
	}
	if s.GrantOption {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WITH GRANT OPTION is not supported").
			WithHint("only superusers grant privileges")
	}
	for _, n := range s.Objects {
		g.Databases = append(g.Databases, n.GetString_().GetSval())
	}
	for _, n := range s.Grantees {
		r := n.GetRoleSpec()
		switch {
		case r == nil:
			continue
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_PUBLIC:
			g.Roles = append(g.Roles, "")
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_CSTRING:
			g.Roles = append(g.Roles, r.Rolename)
		default:
			return nil, b.stmt.errf(r.Location, pgerr.FeatureNotSupported, "%s takes roles' names or PUBLIC", verb)
		}
	}
	return g, nil
}
