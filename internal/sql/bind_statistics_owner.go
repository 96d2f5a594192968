package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// AlterStatisticsOwner is ALTER STATISTICS name OWNER TO role.
type AlterStatisticsOwner struct {
	Name  string
	Owner string // "" for the session's role (CURRENT_USER, CURRENT_ROLE, SESSION_USER)
}

func (*AlterStatisticsOwner) bound() {}

// bindAlterStatisticsOwner binds ALTER STATISTICS … OWNER TO.
func (b *binder) bindAlterStatisticsOwner(ao *pg_query.AlterOwnerStmt) (Bound, error) {
	a := &AlterStatisticsOwner{Name: lastName(ao.Object.GetList().GetItems())}
	switch r := ao.Newowner; r.GetRoletype() {
	case pg_query.RoleSpecType_ROLESPEC_CSTRING:
		a.Owner = r.Rolename
	case pg_query.RoleSpecType_ROLESPEC_CURRENT_USER, pg_query.RoleSpecType_ROLESPEC_SESSION_USER, pg_query.RoleSpecType_ROLESPEC_CURRENT_ROLE:
	default:
		return nil, b.refuse(r.GetLocation(), "OWNER TO %s is not supported", strings.ToUpper(strings.TrimPrefix(r.GetRoletype().String(), "ROLESPEC_")))
	}
	return a, nil
}
