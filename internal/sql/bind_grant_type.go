package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// GrantType is GRANT or REVOKE USAGE | ALL ON TYPE | DOMAIN names TO |
// FROM roles: a type's only privilege is USAGE.
type GrantType struct {
	Revoke bool
	// Domain is ON DOMAIN: each type must be a domain.
	Domain bool
	Types  []string // the types' keys
	Roles  []string // "" for PUBLIC
	// Option is WITH GRANT OPTION of a GRANT and GRANT OPTION FOR of a
	// REVOKE.
	Option bool
	// Cascade is REVOKE's CASCADE.
	Cascade bool
	// Grantor is the role a store's statement grants as (GRANTED BY
	// naming another role than the current user), else empty.
	Grantor string
}

func (*GrantType) bound() {}

func (b *binder) bindGrantType(s *pg_query.GrantStmt, verb, grantor string) (Bound, error) {
	g := &GrantType{Revoke: !s.IsGrant, Domain: s.Objtype == pg_query.ObjectType_OBJECT_DOMAIN, Option: s.GrantOption,
		Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE, Grantor: grantor}
	for _, n := range s.Privileges {
		if p := n.GetAccessPriv(); p.GetPrivName() != "usage" || len(p.Cols) > 0 {
			return nil, pgerr.New("0LP01", "invalid privilege type %s for type", strings.ToUpper(p.GetPrivName()))
		}
	}
	for _, n := range s.Objects {
		if key, ok := b.tempRowType(n.GetList().GetItems()); ok {
			g.Types = append(g.Types, key)
			continue
		}
		name, err := b.typeKeyOf(n.GetList().GetItems())
		if err != nil {
			return nil, err
		}
		g.Types = append(g.Types, name)
	}
	var err error
	if g.Roles, err = b.grantees(s.Grantees, verb); err != nil {
		return nil, err
	}
	return g, nil
}

// tempRowType is the key of the session's temporary relation whose row
// type items names (tt, pg_temp.tt), searched first as PostgreSQL
// searches pg_temp for types.
func (b *binder) tempRowType(items []*pg_query.Node) (string, bool) {
	switch len(items) {
	case 1:
		return b.tempRelation("", items[0].GetString_().GetSval())
	case 2:
		return b.tempRelation(items[0].GetString_().GetSval(), items[1].GetString_().GetSval())
	}
	return "", false
}
