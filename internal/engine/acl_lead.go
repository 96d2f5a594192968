package engine

import "github.com/deltaview/deltaview/internal/sql"

// An object's ACL made by default privileges is sorted as PostgreSQL's
// aclitemsort sorts it, by the grantees' oids: PUBLIC's item, and those of
// roles older than the owner (here: whose names sort before its), precede
// the owner's own item, and keep that place while they hold a privilege.
// Such a leading item of a relation is kept under the key grantee + "\x00"
// (its grantor the owner, whoever that becomes), an item the owner
// granted later under the grantee's name alone, which goes after the
// owner's item. A schema's order lists its owner where its item goes
// (with no privileges of its own in the schema's grants, so that the
// store keeps its place).

// leadKey is the key of a leading item of grantee.
func leadKey(grantee string) string { return grantee + "\x00" }

// key is the key in e.grants of it on a relation owner owns.
func (it aclItem) key(owner string) string {
	if it.lead {
		return leadKey(it.grantee)
	}
	return itemKey(it.grantee, it.grantor, owner)
}

// defaultRelItems are the items a relation owner owns takes from the
// default ACL acl: every grantee's but the owner's, in aclitemsort's
// order, those sorting before the owner leading.
func defaultRelItems(acl map[string]sql.Privilege, owner string) []aclItem {
	var out []aclItem
	lead := true
	for _, r := range aclOrder(acl) {
		if r == owner {
			lead = false
			continue
		}
		out = append(out, aclItem{grantee: r, grantor: owner, privs: acl[r], lead: lead})
	}
	return out
}

// setRelItems makes next the ACL of the relation rel (whose ACL is
// acl), in the store and in memory.
func (e *Engine) setRelItems(rel string, acl, next []aclItem) error {
	owner := e.relOwner(rel)
	return e.saveACLChanges(aclChanges(rel, owner, acl, next, nil, owner))
}
