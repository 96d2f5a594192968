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
	// Option is WITH GRANT OPTION of a GRANT and GRANT OPTION FOR of a
	// REVOKE.
	Option bool
	// All is GRANT ALL (no privilege named); Cascade is REVOKE's CASCADE.
	All, Cascade bool
	// Grantor is the role a store's statement grants as (GRANTED BY
	// naming another role than the current user), else empty.
	Grantor string
}

func (*GrantDatabase) bound() {}

func (b *binder) bindGrantDatabase(s *pg_query.GrantStmt, verb, grantor string) (Bound, error) {
	g := &GrantDatabase{Revoke: !s.IsGrant, Option: s.GrantOption, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE, Grantor: grantor}
	if len(s.Privileges) == 0 {
		g.Privs, g.All = PrivDatabase, true
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
	for _, n := range s.Objects {
		g.Databases = append(g.Databases, n.GetString_().GetSval())
	}
	var err error
	if g.Roles, err = b.grantees(s.Grantees, verb); err != nil {
		return nil, err
	}
	return g, nil
}
