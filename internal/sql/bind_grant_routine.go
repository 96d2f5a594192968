package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// PrivExecute is EXECUTE on a function or procedure.
const PrivExecute Privilege = 1 << 7

// GrantRoutine is GRANT or REVOKE EXECUTE | ALL ON FUNCTION | PROCEDURE
// | ROUTINE routines, or ON ALL FUNCTIONS | PROCEDURES | ROUTINES IN
// SCHEMA schemas, TO | FROM roles.
type GrantRoutine struct {
	Revoke bool
	// Kind is "function", "procedure" or "routine".
	Kind string
	Refs []FuncRef
	// Schemas are the schemas of ALL … IN SCHEMA, nil otherwise.
	Schemas []string
	Roles   []string // "" for PUBLIC
	// Option is WITH GRANT OPTION of a GRANT and GRANT OPTION FOR of a
	// REVOKE.
	Option bool
	// Cascade is REVOKE's CASCADE.
	Cascade bool
	// Grantor is the role a store's statement grants as (GRANTED BY
	// naming another role than the current user), else empty.
	Grantor string
}

func (*GrantRoutine) bound() {}

// bindGrantRoutine binds GRANT or REVOKE on routines; ok is false for
// other objects.
func (b *binder) bindGrantRoutine(s *pg_query.GrantStmt, verb, grantor string) (Bound, bool, error) {
	kind := map[pg_query.ObjectType]string{pg_query.ObjectType_OBJECT_FUNCTION: "function",
		pg_query.ObjectType_OBJECT_PROCEDURE: "procedure", pg_query.ObjectType_OBJECT_ROUTINE: "routine"}[s.Objtype]
	if kind == "" {
		return nil, false, nil
	}
	for _, n := range s.Privileges {
		if p := n.GetAccessPriv(); p != nil && p.PrivName != "execute" {
			return nil, true, pgerr.New("0LP01", "invalid privilege type %s for %s", strings.ToUpper(p.PrivName), kind)
		}
	}
	g := &GrantRoutine{Revoke: !s.IsGrant, Kind: kind, Option: s.GrantOption, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE, Grantor: grantor}
	switch s.Targtype {
	case pg_query.GrantTargetType_ACL_TARGET_ALL_IN_SCHEMA:
		g.Schemas = []string{}
		for _, n := range s.Objects {
			g.Schemas = append(g.Schemas, n.GetString_().GetSval())
		}
	case pg_query.GrantTargetType_ACL_TARGET_OBJECT:
		for _, n := range s.Objects {
			ref, err := b.routineRef(n.GetObjectWithArgs(), kind == "procedure")
			if err != nil {
				return nil, true, err
			}
			g.Refs = append(g.Refs, ref)
		}
	default:
		return nil, false, nil
	}
	var err error
	if g.Roles, err = b.grantees(s.Grantees, verb); err != nil {
		return nil, true, err
	}
	return g, true, nil
}
