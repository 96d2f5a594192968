package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// grantOrder keeps, per relation, the roles that GRANT gave privileges in
// the order of their first grant still held, as PostgreSQL keeps a
// relation's aclitems: a new grantee goes last, a grantee granted more
// keeps its place, one whose every privilege was revoked leaves it. It is
// the order of relacl's items after the owner's.

// noteGrant records that role holds privs on rel after a GRANT or REVOKE.
func (e *Engine) noteGrant(rel, role string, privs sql.Privilege) {
	order := e.grantOrder[rel]
	at := slices.Index(order, role)
	switch {
	case privs == 0 && at >= 0:
		e.grantOrder[rel] = slices.Delete(slices.Clone(order), at, at+1)
	case privs != 0 && at < 0:
		if e.grantOrder == nil {
			e.grantOrder = map[string][]string{}
		}
		e.grantOrder[rel] = append(slices.Clip(order), role)
	}
}

// granteesInOrder lists the roles holding privileges on rel in the order
// of their grants (the keys of its items, its mark left out, acl_owner.go); those no grant recorded (none, unless the catalog was
// read from a file of an earlier format) follow in name order.
func (e *Engine) granteesInOrder(rel string) []string {
	g := e.grants[rel]
	out := make([]string, 0, len(g))
	for _, role := range e.grantOrder[rel] {
		if g[role] != 0 && role != ownItemMark {
			out = append(out, role)
		}
	}
	for _, role := range sortedKeys(g) {
		if g[role] != 0 && role != ownItemMark && !slices.Contains(out, role) {
			out = append(out, role)
		}
	}
	return out
}

// renameGrants moves rel's privileges and their order to its new key.
func (e *Engine) renameGrants(old, new string) {
	if g, ok := e.grants[old]; ok {
		e.grants[new] = g
		delete(e.grants, old)
	}
	if o, ok := e.grantOrder[old]; ok {
		e.grantOrder[new] = o
		delete(e.grantOrder, old)
	}
}
