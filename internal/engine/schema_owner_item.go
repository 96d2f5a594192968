package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// A schema's owner's item, as a relation's (acl_owner.go): implicit (USAGE
// and CREATE) until a REVOKE takes a privilege from it; then the schema's
// grants hold ownItemMark and the owner's item under the owner's name, in
// its place in the order, absent when emptied.

// schemaPrivs are every privilege of a schema, the owner's own item.
const schemaPrivs = sql.PrivUsage | sql.PrivCreate

// ownExplicit reports whether the owner's item of sc is explicit.
func (sc *schema) ownExplicit() bool {
	_, ok := sc.grants[ownItemMark]
	return ok
}

// ownerHolds reports whether role, a role whose privileges a role holds,
// holds every privilege on sc as its owner, without looking at its ACL.
func (sc *schema) ownerHolds(role string) bool { return sc.owner == role && !sc.ownExplicit() }

// items are the items of sc's ACL in order, the owner's in its place
// (after the leading items its order lists before it, else first), each
// a grantee and its privileges (all of them for an implicit owner's).
func (sc *schema) items() ([]string, []sql.Privilege) {
	roles := sc.grantees()
	if sc.ownExplicit() {
		privs := make([]sql.Privilege, len(roles))
		for i, r := range roles {
			privs[i] = sc.grants[r]
		}
		return roles, privs
	}
	roles = slices.DeleteFunc(roles, func(r string) bool { return r == sc.owner })
	pos := 0
	if at := slices.Index(sc.order, sc.owner); at >= 0 {
		for _, r := range roles {
			if i := slices.Index(sc.order, r); i >= 0 && i < at {
				pos++
			}
		}
	}
	roles = slices.Insert(roles, pos, sc.owner)
	privs := make([]sql.Privilege, len(roles))
	for i, r := range roles {
		privs[i] = sc.grants[r]
		if r == sc.owner {
			privs[i] |= schemaPrivs
		}
	}
	return roles, privs
}

// explicitGrants are sc's grants and order with the owner's item made
// explicit, as a REVOKE from the owner makes them.
func (sc *schema) explicitGrants() (map[string]sql.Privilege, []string) {
	roles, privs := sc.items()
	g := map[string]sql.Privilege{ownItemMark: sql.PrivUsage}
	for i, r := range roles {
		g[r] = privs[i]
	}
	return g, roles
}

// newOwnerGrants are sc's grants and order for its new owner, as
// PostgreSQL's aclnewowner makes them: the old owner becomes the new one
// as grantee and grantor, and the new owner's items merge into the first
// of them. An implicit owner's item stays implicit, its place kept in the
// order.
func (sc *schema) newOwnerGrants(newOwner string) (map[string]sql.Privilege, []string) {
	if sc.grants == nil {
		return nil, nil
	}
	explicit := sc.ownExplicit()
	roles, privs := sc.items()
	g := map[string]sql.Privilege{}
	var order []string
	for i, r := range roles {
		if r == sc.owner {
			r = newOwner
		}
		if _, ok := g[r]; !ok {
			order = append(order, r)
		}
		g[r] |= privs[i]
	}
	if explicit {
		g[ownItemMark] = sc.grants[ownItemMark]
	} else {
		g[newOwner] = 0 // its place alone (acl_lead.go)
	}
	return g, order
}

// schemaLetters are a schema's privileges p as nspacl's letters.
func schemaLetters(p sql.Privilege) string {
	var letters string
	for _, x := range []struct {
		p sql.Privilege
		c string
	}{{sql.PrivUsage, "U"}, {sql.PrivCreate, "C"}} {
		if p&x.p != 0 {
			letters += x.c
		}
		if p.Options()&x.p != 0 {
			letters += "*"
		}
	}
	return letters
}
