package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// AlterStatisticsOwner is ALTER STATISTICS name OWNER TO role.
type AlterStatisticsOwner struct {
	Schema string // "" when unqualified
	Name   string
	Owner  string // "" for the session's role (CURRENT_USER, CURRENT_ROLE, SESSION_USER)
}

func (*AlterStatisticsOwner) bound() {}

// bindAlterStatisticsOwner binds ALTER STATISTICS … OWNER TO.
func (b *binder) bindAlterStatisticsOwner(ao *pg_query.AlterOwnerStmt) (Bound, error) {
	owner, err := b.newOwner(ao.Newowner)
	if err != nil {
		return nil, err
	}
	name := statsName(ao.Object.GetList().GetItems())
	return &AlterStatisticsOwner{Schema: name.Schema, Name: name.Name, Owner: owner}, nil
}
