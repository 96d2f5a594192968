package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// A type's ACL items carry their grantor as a schema's do
// (schema_grantor.go): e.typeACLs keeps an item the type's owner granted
// under its grantee's name and one another role granted, holding the
// grant option, under grantee + "\x00" + grantor, all in the order of
// their first grant; e.typeOptions lists the keys of the items holding
// the option. GRANT and REVOKE run PostgreSQL's ExecGrant_Type over those
// items: the grantor is the role the user grants as (bestGrantor), and a
// REVOKE taking an option takes what was granted with it (2BP01 unless
// CASCADE). The store's statements name such an item's grantor with
// GRANTED BY.

// typeItems is the ACL of the type name as items, in order.
func (e *Engine) typeItems(name string) []aclItem {
	keys, _ := e.typeACL(name)
	return typeKeyItems(keys, e.typeOptions[name], e.typeACLOwner(name))
}

// typeKeyItems are the items of the keys keys of a type owner owns, those
// of opts holding USAGE's grant option.
func typeKeyItems(keys, opts []string, owner string) []aclItem {
	out := make([]aclItem, 0, len(keys))
	for _, k := range keys {
		grantee, grantor := splitItemKey(k, owner)
		p := sql.PrivUsage
		if slices.Contains(opts, k) {
			p = p.WithOption()
		}
		out = append(out, aclItem{grantee: grantee, grantor: grantor, privs: p})
	}
	return out
}

// typeItemKeys are the keys and option keys of items on a type owner
// owns; an emptied item leaves. The keys are never nil: an ACL holding
// no item is not the default.
func typeItemKeys(items []aclItem, owner string) (keys, opts []string) {
	keys = []string{}
	for _, it := range items {
		if it.privs == 0 {
			continue
		}
		k := itemKey(it.grantee, it.grantor, owner)
		keys = append(keys, k)
		if it.privs.Options() != 0 {
			opts = append(opts, k)
		}
	}
	return keys, opts
}

// setTypeItems makes items the ACL of the type name.
func (e *Engine) setTypeItems(name string, items []aclItem) error {
	keys, opts := typeItemKeys(items, e.typeACLOwner(name))
	return e.setTypeACLWith(name, keys, opts)
}

// grantTypeBy is the ACL items of the type name after g, run by user:
// the items of the role user grants as change, restricted to the options
// it holds, with PostgreSQL's WARNING when it holds none (42501 when it
// holds no privilege either). A store's statement naming a grantor
// (GRANTED BY) restores that grantor's item.
func (e *Engine) grantTypeBy(g *sql.GrantType, name string, items []aclItem, user string) ([]aclItem, string, error) {
	owner := e.typeACLOwner(name)
	if g.Grantor != "" && !g.Revoke {
		p := sql.PrivUsage
		if g.Option {
			p = p.WithOption()
		}
		for _, r := range g.Roles {
			items = withItem(items, r, g.Grantor, p)
		}
		return items, "", nil
	}
	grantor, avail := e.bestGrantor(user, sql.PrivUsage, items, owner)
	privs, w, err := e.restrictObjectGrant(g.Revoke, false, sql.PrivUsage, sql.PrivUsage, grantor, avail, owner, items, "type", e.bareName(name))
	if err != nil || privs == 0 {
		return items, w, err
	}
	next, err := e.mergeGrant(items, g.Revoke, g.Option, g.Cascade, g.Roles, privs, grantor, owner)
	return next, w, err
}
