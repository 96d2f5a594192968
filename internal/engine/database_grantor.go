package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
)

// The database's ACL items carry their grantor as a relation's do
// (acl_items.go): e.dbACL keeps an item its owner (the superuser)
// granted under the grantee's name and one another role granted, holding
// a grant option, under grantee + "\x00" + grantor, e.dbACLOrder all of
// them in the order of their first grant. The store's statements name
// such an item's grantor with GRANTED BY.

// databaseItems is the database's ACL in order.
func (e *Engine) databaseItems() []aclItem {
	acl, order := e.databaseACL()
	out := make([]aclItem, 0, len(order))
	for _, k := range order {
		grantee, grantor := splitItemKey(k, SuperuserName)
		out = append(out, aclItem{grantee: grantee, grantor: grantor, privs: acl[k]})
	}
	return out
}

// databaseFromItems is the database's ACL and order holding items.
func databaseFromItems(items []aclItem) (map[string]sql.Privilege, []string) {
	acl := map[string]sql.Privilege{}
	order := make([]string, 0, len(items))
	for _, it := range items {
		if it.privs == 0 {
			continue
		}
		k := itemKey(it.grantee, it.grantor, SuperuserName)
		acl[k] = it.privs
		order = append(order, k)
	}
	return acl, order
}

// granteeUnion is what each grantee holds in acl, an ACL keyed as
// itemKey keys it, from every grantor: acl itself while the owner
// granted every item.
func granteeUnion(acl map[string]sql.Privilege) map[string]sql.Privilege {
	other := false
	for k := range acl {
		if k != ownItemMark && strings.Contains(k, "\x00") {
			other = true
			break
		}
	}
	if !other {
		return acl
	}
	out := make(map[string]sql.Privilege, len(acl))
	for k, p := range acl {
		if k == ownItemMark {
			out[k] = p
			continue
		}
		grantee, _, _ := strings.Cut(k, "\x00")
		out[grantee] |= p
	}
	return out
}
