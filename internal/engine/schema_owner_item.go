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

// newOwnerGrants are sc's grants and order for its new owner, as
// PostgreSQL's aclnewowner makes them: the old owner becomes the new one
// as grantee and grantor, and items that then share a grantee and a
// grantor merge into the first of them. An implicit owner's item stays
// implicit, its place kept in the order.
func (sc *schema) newOwnerGrants(newOwner string) (map[string]sql.Privilege, []string) {
	if sc.grants == nil {
		return nil, nil
	}
	var acl []aclItem
	for _, it := range sc.aclItems() {
		if it.grantee == sc.owner {
			it.grantee = newOwner
		}
		if it.grantor == sc.owner {
			it.grantor = newOwner
		}
		if at := slices.IndexFunc(acl, func(o aclItem) bool { return o.grantee == it.grantee && o.grantor == it.grantor }); at >= 0 {
			acl[at].privs |= it.privs
		} else if it.privs != 0 {
			acl = append(acl, it)
		}
	}
	moved := &schema{name: sc.name, owner: newOwner, grants: map[string]sql.Privilege{}}
	if sc.ownExplicit() {
		moved.grants[ownItemMark] = sc.grants[ownItemMark]
	}
	return moved.withACLItems(acl)
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
