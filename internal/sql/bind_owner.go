package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// AlterRelOwner is ALTER TABLE | VIEW | MATERIALIZED VIEW | SEQUENCE name
// OWNER TO role: the relation's new owner. The engine finds the relation
// and checks its kind against Kind, the statement's word ("table" takes
// any relation, as in PostgreSQL).
type AlterRelOwner struct {
	Kind string
	Name string
	// Owner is the role named; "" for CURRENT_USER, SESSION_USER and
	// CURRENT_ROLE, the session's role.
	Owner     string
	MissingOk bool
}

func (*AlterRelOwner) bound() {}

// bindAlterRelOwner binds an ALTER of a relation whose subcommands are
// all OWNER TO (the last one wins, as in PostgreSQL); ok is false for any
// other ALTER.
func (b *binder) bindAlterRelOwner(as *pg_query.AlterTableStmt) (_ Bound, ok bool, _ error) {
	kind := map[pg_query.ObjectType]string{pg_query.ObjectType_OBJECT_TABLE: "table", pg_query.ObjectType_OBJECT_VIEW: "view",
		pg_query.ObjectType_OBJECT_MATVIEW: "materialized view", pg_query.ObjectType_OBJECT_SEQUENCE: "sequence",
		pg_query.ObjectType_OBJECT_INDEX: "index"}[as.Objtype]
	if kind == "" || len(as.Cmds) == 0 || as.Relation == nil {
		return nil, false, nil
	}
	out := &AlterRelOwner{Kind: kind, Name: as.Relation.Relname, MissingOk: as.MissingOk}
	for _, n := range as.Cmds {
		c := n.GetAlterTableCmd()
		if c == nil || c.Subtype != pg_query.AlterTableType_AT_ChangeOwner {
			return nil, false, nil
		}
		owner, err := b.newOwner(c.Newowner)
		if err != nil {
			return nil, true, err
		}
		out.Owner = owner
	}
	return out, true, nil
}

// newOwner reads the role of OWNER TO: its name, or "" for the session's
// role (CURRENT_USER, CURRENT_ROLE, SESSION_USER), which exists.
func (b *binder) newOwner(r *pg_query.RoleSpec) (string, error) {
	switch r.GetRoletype() {
	case pg_query.RoleSpecType_ROLESPEC_CSTRING:
		return r.Rolename, nil
	case pg_query.RoleSpecType_ROLESPEC_CURRENT_USER, pg_query.RoleSpecType_ROLESPEC_SESSION_USER, pg_query.RoleSpecType_ROLESPEC_CURRENT_ROLE:
		return "", nil
	}
	return "", b.refuse(r.GetLocation(), "OWNER TO %s is not supported", strings.ToUpper(strings.TrimPrefix(r.GetRoletype().String(), "ROLESPEC_")))
}
