package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// A relation's owner holds every privilege through its own item, which
// is implicit here (ownerItem) until a REVOKE takes a privilege from it.
// PostgreSQL then materialises the ACL (acldefault) and the owner's item
// is one like the others: it holds what it was left (REVOKE SELECT ON t
// FROM owner leaves o=awdDxt/o, and the owner then gets 42501 on SELECT),
// keeps its place in the ACL, leaves it when emptied, and a GRANT back
// puts it last. Such a relation's grants hold ownItemMark, and its
// owner's item is the grants' item keyed by the owner's name, absent when
// empty.

// ownItemMark keys the mark of a relation whose owner's item is explicit;
// no item key has this form (acl_items.go).
const ownItemMark = "\x00\x00"

// ownItemExplicit reports whether the owner's item of rel is explicit.
func (e *Engine) ownItemExplicit(rel string) bool {
	_, ok := e.grants[rel][ownItemMark]
	return ok
}

// ownerHoldsAll reports whether the owner of rel, and so every role
// holding its privileges, holds every privilege on it without looking at
// its ACL: unless a REVOKE took one from the owner's item.
func (e *Engine) ownerHoldsAll(rel string) bool { return !e.ownItemExplicit(rel) }

// explicitOwnerItems is acl, the implicit ACL of rel, with the owner's
// own item (every privilege, and the grant options merged into it) in
// its place after the leading items, as acldefault would have it.
func (e *Engine) explicitOwnerItems(rel string, acl []aclItem) []aclItem {
	owner := e.relOwner(rel)
	own := aclItem{grantee: owner, grantor: owner, privs: e.ownerItem(rel)}
	acl = slices.DeleteFunc(slices.Clone(acl), func(it aclItem) bool { return it.grantee == owner && it.grantor == owner })
	n := 0
	for n < len(acl) && acl[n].lead {
		n++
	}
	return slices.Insert(acl, n, own)
}

// explicitACLChanges are the stored items that make next, with the
// owner's item explicit, the ACL of rel: every item of it gone, then
// each of next and the mark in order, so that the store and the memory
// keep next's order.
func (e *Engine) explicitACLChanges(rel string, next []aclItem) []StoredGrant {
	owner := e.relOwner(rel)
	var out []StoredGrant
	for _, k := range sortedKeys(e.grants[rel]) {
		out = append(out, StoredGrant{Relation: rel, Role: k})
	}
	for _, it := range next {
		out = append(out, StoredGrant{Relation: rel, Role: it.key(owner), Privs: it.privs})
	}
	return append(out, StoredGrant{Relation: rel, Role: ownItemMark, Privs: sql.PrivSelect})
}

// revokesFromOwner reports whether a GRANT or REVOKE by grantor to
// grantees on rel takes from the owner's own item (revoke).
func revokesFromOwner(revoke bool, grantees []string, grantor, owner string) bool {
	return revoke && grantor == owner && slices.Contains(grantees, owner)
}

// ownerPlainOn are the privileges the owner's own item holds on rel:
// every privilege while it is implicit.
func (e *Engine) ownerPlainOn(rel string) sql.Privilege { return e.ownerItem(rel).Plain() }
