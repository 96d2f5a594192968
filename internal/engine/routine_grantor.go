package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
)

// The EXECUTE items of a routine or an aggregate carry their grantor as a
// schema's do (schema_grantor.go): the ACL (sql.Function's, sql.Aggregate's)
// keeps an item the owner granted under its grantee's name and one another
// role granted, holding the grant option, under grantee + "\x00" + grantor
// (itemKey), in pg_proc.proacl's order; ACLOptions are the keys of the items
// held with the option. GRANT and REVOKE run PostgreSQL's ExecGrant_Function
// over those items (bestGrantor, restrictObjectGrant, mergeGrant).
//
// The store keeps a routine's statements as a log after its CREATE, run
// again at open before the roles are back: a change of its items is
// written as the item changes it makes, each naming its grantor with
// GRANTED BY, which a restoring session applies as written (no grantor is
// chosen, no option is checked, nothing cascades), so that the log replays
// the same items whatever the roles' memberships were.

// execItems is the ACL of a routine or an aggregate of ACL keys acl (has:
// one set by GRANT or REVOKE), option keys opts and owner owner, as items:
// PUBLIC's and the owner's, both from the owner, by default.
func execItems(has bool, acl, opts []string, owner string) []aclItem {
	keys := executeACL(has, acl, owner)
	out := make([]aclItem, len(keys))
	for i, k := range keys {
		grantee, grantor := splitItemKey(k, owner)
		p := sql.PrivExecute
		if slices.Contains(opts, k) {
			p = p.WithOption()
		}
		out[i] = aclItem{grantee: grantee, grantor: grantor, privs: p}
	}
	return out
}

// execKeys are the ACL keys and option keys of items, a routine's of
// owner owner.
func execKeys(items []aclItem, owner string) (acl, opts []string) {
	acl = []string{}
	for _, it := range items {
		if it.privs.Plain()&sql.PrivExecute == 0 {
			continue
		}
		k := itemKey(it.grantee, it.grantor, owner)
		acl = append(acl, k)
		if it.privs.Options() != 0 {
			opts = append(opts, k)
		}
	}
	return acl, opts
}

// execGrantee is the grantee of the item keyed k.
func execGrantee(k string) string {
	grantee, _, _ := strings.Cut(k, "\x00")
	return grantee
}

// execNewOwner are the ACL keys and option keys of a routine given from
// owner old to owner new, as PostgreSQL's aclnewowner: the old owner
// becomes the new one as grantee and grantor, and the items that then
// share a grantee and a grantor merge into the first of them, which keeps
// their grant options.
func execNewOwner(acl, opts []string, old, new string) ([]string, []string) {
	return execKeys(aclNewOwner(execItems(true, acl, opts, old), old, new), new)
}

// execGrantedBy is the items of a routine of ACL items after g, on
// behalf of user, as PostgreSQL's ExecGrant_Function changes them: what
// is given or taken is the grant of the role user grants as, with a
// WARNING when it holds no grant option; 42501 when it holds no privilege
// on the routine, 2BP01 when a lost option leaves items granted through
// it without CASCADE. A store's statement naming its grantor is applied
// as written (restoredExecItems).
func (e *Engine) execGrantedBy(g *sql.GrantRoutine, items []aclItem, owner, name, user string, restoring bool) ([]aclItem, string, error) {
	if restoring && g.Grantor != "" {
		return restoredExecItems(g, items), "", nil
	}
	grantor, avail := e.bestGrantor(user, sql.PrivExecute, items, owner)
	privs, w, err := e.restrictObjectGrant(g.Revoke, false, sql.PrivExecute, sql.PrivExecute, grantor, avail, owner, items, "function", name)
	if err != nil || privs == 0 {
		return items, w, err
	}
	next, err := e.mergeGrant(items, g.Revoke, g.Option, g.Cascade, g.Roles, privs, grantor, owner)
	return next, w, err
}

// restoredExecItems is items after a store's statement g, which names
// the grantor of the items it changes: a GRANT adds to the item of each
// grantee and that grantor (new and last when there is none), a REVOKE
// takes from it, the item leaving when emptied.
func restoredExecItems(g *sql.GrantRoutine, items []aclItem) []aclItem {
	var p sql.Privilege
	switch {
	case g.Revoke && g.Option:
		p = sql.OptionsOf(sql.PrivExecute)
	case g.Revoke, g.Option:
		p = sql.PrivExecute.WithOption()
	default:
		p = sql.PrivExecute
	}
	for _, r := range g.Roles {
		if !g.Revoke {
			items = withItem(items, r, g.Grantor, p)
			continue
		}
		items = slices.Clone(items)
		at := slices.IndexFunc(items, func(it aclItem) bool { return it.grantee == r && it.grantor == g.Grantor })
		if at < 0 {
			continue
		}
		if items[at].privs &^= p; items[at].privs.Plain() == 0 {
			items = slices.Delete(items, at, at+1)
		}
	}
	return items
}

// execChangeText is the statements a store keeps for a change of the
// items of the routine sig (of kind word, FUNCTION or PROCEDURE, owned by
// owner) from old (had: an ACL a GRANT or REVOKE set) to next: each item
// old holds more of than next taken, then each next holds more of than
// old given, all naming their grantor. When that would not put the items
// in next's order (the default privileges of a new routine), every item
// of old is taken and every one of next given. A change of nothing still
// makes the default ACL explicit, as PostgreSQL's first GRANT or REVOKE
// does: the owner's own EXECUTE given again.
func execChangeText(word, sig, owner string, old, next []aclItem, had bool) string {
	var stmts []string
	on := " EXECUTE ON " + word + " " + routineSQLName(sig) + " "
	revoke := func(it aclItem, option bool) {
		verb := "REVOKE"
		if option {
			verb = "REVOKE GRANT OPTION FOR"
		}
		stmts = append(stmts, verb+on+"FROM "+defACLGrantee(it.grantee)+" GRANTED BY "+sql.QuoteIdent(it.grantor))
	}
	grant := func(it aclItem) {
		stmt := "GRANT" + on + "TO " + defACLGrantee(it.grantee)
		if it.privs.Options() != 0 {
			stmt += " WITH GRANT OPTION"
		}
		stmts = append(stmts, stmt+" GRANTED BY "+sql.QuoteIdent(it.grantor))
	}
	find := func(items []aclItem, it aclItem) int {
		return slices.IndexFunc(items, func(x aclItem) bool { return x.grantee == it.grantee && x.grantor == it.grantor })
	}
	var kept []aclItem
	for _, it := range old {
		switch at := find(next, it); {
		case at < 0:
			revoke(it, false)
		case it.privs.Options()&^next[at].privs.Options() != 0:
			revoke(it, true)
			kept = append(kept, next[at])
		default:
			kept = append(kept, it)
		}
	}
	for _, it := range next {
		switch at := find(old, it); {
		case at < 0:
			grant(it)
			kept = append(kept, it)
		case it.privs.Options()&^old[at].privs.Options() != 0:
			grant(it)
			kept[find(kept, it)] = it
		}
	}
	if !slices.Equal(kept, next) {
		stmts = stmts[:0]
		for _, it := range old {
			revoke(it, false)
		}
		for _, it := range next {
			grant(it)
		}
	}
	if len(stmts) == 0 && !had {
		grant(aclItem{grantee: owner, grantor: owner, privs: sql.PrivExecute})
	}
	return strings.Join(stmts, ";\n")
}

// execNamesRole reports whether role is a grantee or a grantor of an item
// of a routine or an aggregate of ACL keys acl (has) other than its owner
// owner: a dependency PostgreSQL records.
func execNamesRole(has bool, acl []string, owner, role string) bool {
	return has && slices.Contains(aclRoles(execItems(true, acl, nil, owner), owner), role)
}

// defaultExecItems are the items a routine of owner owner takes from
// the default privileges acl (mergedDefaultACL), in its order, each
// granted by the owner.
func defaultExecItems(acl map[string]sql.Privilege, owner string) []aclItem {
	var out []aclItem
	for _, r := range aclOrder(acl) {
		if p := acl[r] & sql.PrivExecute.WithOption(); p.Plain() != 0 {
			out = append(out, aclItem{grantee: r, grantor: owner, privs: p})
		}
	}
	return out
}
