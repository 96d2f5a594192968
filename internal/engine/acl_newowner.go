package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// ownerItem is the owner's own item on the relation keyed key: every
// privilege, and the grant options its key holds; the item itself once
// a REVOKE made it explicit (acl_owner.go).
func (e *Engine) ownerItem(key string) sql.Privilege {
	if e.ownItemExplicit(key) {
		return e.grants[key][e.relOwner(key)]
	}
	return ownerPlain(e.seqs[key] != nil) | e.grants[key][e.relOwner(key)]
}

// ownerPlain is every privilege of a relation (a sequence when seq).
func ownerPlain(seq bool) sql.Privilege {
	if seq {
		return sql.PrivSelect | sql.PrivUpdate | sql.PrivUsage
	}
	return sql.PrivTableAll
}

// aclNewOwner rewrites the ACL of the relation keyed key for its new
// owner, as PostgreSQL's aclnewowner does: the old owner becomes the new
// one wherever it is grantee or grantor, and items that then share a
// grantee and a grantor merge into the first of them; the new owner's
// items from itself merge into its own (which holds every privilege). It
// runs before the owner changes.
func (e *Engine) aclNewOwner(key, newOwner string) error {
	g, ok := e.grants[key]
	if !ok {
		return nil
	}
	old := e.relOwner(key)
	explicit := e.ownItemExplicit(key)
	acl := e.relItems(key)
	if !explicit {
		acl = e.explicitOwnerItems(key, acl)
	}
	next := aclNewOwner(acl, old, newOwner)
	at := slices.IndexFunc(next, func(x aclItem) bool { return x.grantee == newOwner && x.grantor == newOwner })
	for i := range next {
		next[i].lead = i < at && next[i].grantor == newOwner
	}
	switch {
	case explicit:
		// The new owner's item is what the merge left (acl_owner.go).
	case next[at].privs.Options() == 0:
		next = slices.Delete(next, at, at+1) // the new owner's own item, as it always is
	default:
		next[at].privs = next[at].privs.Options().WithOption() // the options it keeps
	}
	keys := make([]string, len(next))
	m := make(map[string]sql.Privilege, len(next))
	for i, it := range next {
		keys[i] = it.key(newOwner)
		m[keys[i]] = it.privs
	}
	if explicit {
		keys = append(keys, ownItemMark)
		m[ownItemMark] = g[ownItemMark]
	}
	if slices.Equal(keys, e.grantOrder[key]) && len(g) == len(m) {
		same := true
		for k, p := range m {
			same = same && g[k] == p
		}
		if same {
			return nil
		}
	}
	if e.store != nil && !isTemp(key) {
		// Every item again, in order: one whose key changed goes where
		// PostgreSQL keeps it, not last.
		var saves []StoredGrant
		for k := range g {
			saves = append(saves, StoredGrant{Relation: key, Role: k})
		}
		for _, k := range keys {
			saves = append(saves, StoredGrant{Relation: key, Role: k, Privs: m[k]})
		}
		if err := e.store.SaveGrants(saves); err != nil {
			return err
		}
	}
	e.grants[key] = m
	if e.grantOrder == nil {
		e.grantOrder = map[string][]string{}
	}
	e.grantOrder[key] = keys
	return nil
}
