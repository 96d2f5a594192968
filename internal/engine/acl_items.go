package engine

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A relation's ACL as PostgreSQL keeps it: one item per (grantee,
// grantor), in the order of their first grant. e.grants keeps the items
// the owner granted under the grantee's name (as they were kept before
// other grantors existed) and those another role granted under
// grantee + "\x00" + grantor, all in one order (grant_order.go); a role's
// name never holds a NUL byte, so the two never clash. The functions
// below are PostgreSQL's aclupdate, recursive_revoke, aclmask and
// select_best_grantor over that list.

// aclItem is one item of a relation's ACL: privs (with their grant
// options) that grantor gave grantee ("" for PUBLIC). lead marks an item
// of the owner's that precedes the owner's own item (acl_lead.go).
type aclItem struct {
	grantee, grantor string
	privs            sql.Privilege
	lead             bool
}

// itemKey is the key in e.grants of the item grantor gave grantee on a
// relation owner owns.
func itemKey(grantee, grantor, owner string) string {
	if grantor == owner {
		return grantee
	}
	return grantee + "\x00" + grantor
}

// splitItemKey is the grantee and grantor of the item keyed key on a
// relation owner owns (a leading item's grantor is the owner).
func splitItemKey(key, owner string) (grantee, grantor string) {
	if g, r, ok := strings.Cut(key, "\x00"); ok && r != "" {
		return g, r
	} else if ok {
		return g, owner // a leading item (acl_lead.go)
	}
	return key, owner
}

// relItems is the ACL of rel in its order, the owner's own item left out
// while it is implicit (it holds every privilege, acl_owner.go).
func (e *Engine) relItems(rel string) []aclItem {
	owner := e.relOwner(rel)
	g := e.grants[rel]
	var out []aclItem
	for _, key := range e.granteesInOrder(rel) {
		grantee, grantor := splitItemKey(key, owner)
		out = append(out, aclItem{grantee: grantee, grantor: grantor, privs: g[key], lead: key == leadKey(grantee)})
	}
	return out
}

// relGrants is what each grantee holds on rel, from every grantor: the
// grants map itself while the owner granted every item.
func (e *Engine) relGrants(rel string) map[string]sql.Privilege {
	g := e.grants[rel]
	other := false
	for key := range g {
		if strings.Contains(key, "\x00") {
			other = true
			break
		}
	}
	if !other {
		return g
	}
	out := make(map[string]sql.Privilege, len(g))
	for key, p := range g {
		if key == ownItemMark {
			continue // no item (acl_owner.go)
		}
		grantee, _, _ := strings.Cut(key, "\x00")
		out[grantee] |= p
	}
	return out
}

// aclMask is PostgreSQL's aclmask: the privileges of mask role holds in
// acl, directly, through PUBLIC or through a role whose privileges it
// holds; the owner's members hold every grant option.
func (e *Engine) aclMask(acl []aclItem, role, owner string, mask sql.Privilege) sql.Privilege {
	var result sql.Privilege
	if opts := mask &^ mask.Plain(); opts != 0 && e.hasPrivsOf(role, owner) {
		result = opts
		if result == mask {
			return result
		}
	}
	for _, it := range acl {
		if it.grantee == "" || it.grantee == role {
			result |= it.privs & mask
		}
	}
	for _, it := range acl {
		if it.grantee != "" && it.grantee != role && e.hasPrivsOf(role, it.grantee) {
			result |= it.privs & mask
		}
	}
	return result
}

// aclMaskDirect is PostgreSQL's aclmask_direct: the privileges of mask
// granted to role itself (the owner holds every grant option).
func aclMaskDirect(acl []aclItem, role, owner string, mask sql.Privilege) sql.Privilege {
	var result sql.Privilege
	if opts := mask &^ mask.Plain(); opts != 0 && role == owner {
		result = opts
		if result == mask {
			return result
		}
	}
	for _, it := range acl {
		if it.grantee == role {
			result |= it.privs & mask
		}
	}
	return result
}

// bestGrantor is PostgreSQL's select_best_grantor: the role user grants
// privs as, and the grant options it holds of them. The owner and a
// superuser grant as the owner; another role as itself or the first role
// whose privileges it holds that holds every option needed, else the one
// holding most of them, else itself with none.
func (e *Engine) bestGrantor(user string, privs sql.Privilege, acl []aclItem, owner string) (string, sql.Privilege) {
	needed := sql.OptionsOf(privs)
	if user == owner || e.isSuperuser(user) {
		return owner, needed
	}
	grantor, opts, n := user, sql.Privilege(0), 0
	for _, r := range e.heldRoles(user) {
		have := aclMaskDirect(acl, r, owner, needed)
		if have == needed {
			return r, have
		}
		if c := bits.OnesCount16(uint16(have)); have != 0 && c > n {
			grantor, opts, n = r, have, c
		}
	}
	return grantor, opts
}

// isSuperuser reports whether role is a superuser.
func (e *Engine) isSuperuser(role string) bool {
	if role == SuperuserName {
		return true
	}
	r := e.roles[role]
	return r != nil && r.superuser
}

// aclUpdate is PostgreSQL's aclupdate: acl after grantor gives grantee
// privs (takes them when revoke). A new item goes last, an emptied one
// leaves, and grant options taken from grantee take what it granted with
// them (recursiveRevoke).
func (e *Engine) aclUpdate(acl []aclItem, mod aclItem, revoke bool, owner string, cascade bool) ([]aclItem, error) {
	if !revoke && mod.privs.Options() != 0 {
		if err := e.checkCircularity(acl, mod, owner); err != nil {
			return nil, err
		}
	}
	acl = slices.Clone(acl)
	at := slices.IndexFunc(acl, func(it aclItem) bool { return it.grantee == mod.grantee && it.grantor == mod.grantor })
	if at < 0 {
		acl = append(acl, aclItem{grantee: mod.grantee, grantor: mod.grantor})
		at = len(acl) - 1
	}
	old := acl[at].privs
	if revoke {
		acl[at].privs &^= mod.privs
	} else {
		acl[at].privs |= mod.privs
	}
	lost := old.Options() &^ acl[at].privs.Options()
	if acl[at].privs == 0 {
		acl = slices.Delete(acl, at, at+1)
	}
	if lost != 0 {
		return e.recursiveRevoke(acl, mod.grantee, lost, owner, cascade)
	}
	return acl, nil
}

// checkCircularity is PostgreSQL's check_circularity: a grant option
// given to mod's grantee by a grantor that holds it only through that
// grantee (0LP01) would make a cycle no REVOKE could take apart.
func (e *Engine) checkCircularity(acl []aclItem, mod aclItem, owner string) error {
	if mod.grantor == owner {
		return nil
	}
	for {
		at := slices.IndexFunc(acl, func(it aclItem) bool { return it.grantee == mod.grantee && it.privs.Options() != 0 })
		if at < 0 {
			break
		}
		var err error
		if acl, err = e.aclUpdate(acl, acl[at], true, owner, true); err != nil {
			return err
		}
	}
	own := e.aclMask(acl, mod.grantor, owner, sql.OptionsOf(mod.privs.Options())).Options()
	if mod.privs.Options()&^own != 0 {
		return pgerr.New("0LP01", "grant options cannot be granted back to your own grantor")
	}
	return nil
}

// recursiveRevoke is PostgreSQL's recursive_revoke: grantee lost the grant
// options of privs; unless it still holds them another way, the
// privileges it granted with them go too (CASCADE), or the REVOKE fails
// (RESTRICT, 2BP01).
func (e *Engine) recursiveRevoke(acl []aclItem, grantee string, privs sql.Privilege, owner string, cascade bool) ([]aclItem, error) {
	if grantee == owner {
		return acl, nil
	}
	privs &^= e.aclMask(acl, grantee, owner, sql.OptionsOf(privs)).Options()
	if privs == 0 {
		return acl, nil
	}
	for {
		at := slices.IndexFunc(acl, func(it aclItem) bool { return it.grantor == grantee && it.privs.Plain()&privs != 0 })
		if at < 0 {
			return acl, nil
		}
		if !cascade {
			return nil, pgerr.New(pgerr.DependentObjects, "dependent privileges exist").WithHint("Use CASCADE to revoke them too.")
		}
		var err error
		acl, err = e.aclUpdate(acl, aclItem{grantee: acl[at].grantee, grantor: grantee, privs: privs | sql.OptionsOf(privs)}, true, owner, cascade)
		if err != nil {
			return nil, err
		}
	}
}

// mergeGrant is PostgreSQL's merge_acl_with_grant: acl after grantor
// gives (takes, when revoke) privs to (from) each of grantees, with their
// grant options when option (the options alone, for a REVOKE GRANT
// OPTION FOR).
func (e *Engine) mergeGrant(acl []aclItem, revoke, option, cascade bool, grantees []string, privs sql.Privilege, grantor, owner string) ([]aclItem, error) {
	var p sql.Privilege
	if !revoke || !option {
		p |= privs.Plain()
	}
	if revoke || option {
		p |= sql.OptionsOf(privs)
	}
	for _, grantee := range grantees {
		var err error
		if acl, err = e.aclUpdate(acl, aclItem{grantee: grantee, grantor: grantor, privs: p}, revoke, owner, cascade); err != nil {
			return nil, err
		}
	}
	return acl, nil
}

// aclRoles are the roles acl names, as grantee or grantor, other than
// owner, sorted: those PostgreSQL's aclmembers records a dependency on.
func aclRoles(acl []aclItem, owner string) []string {
	var out []string
	for _, it := range acl {
		for _, r := range []string{it.grantee, it.grantor} {
			if r != owner && it.privs != 0 && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	slices.Sort(out)
	return out
}

// aclNewOwner are items of an object old owned once owner owns it, as
// PostgreSQL's aclnewowner makes them: old becomes owner as grantee and
// grantor, and items that then share a grantee and a grantor merge into
// the first of them.
func aclNewOwner(items []aclItem, old, owner string) []aclItem {
	var out []aclItem
	for _, it := range items {
		if it.grantee == old {
			it.grantee = owner
		}
		if it.grantor == old {
			it.grantor = owner
		}
		if at := slices.IndexFunc(out, func(o aclItem) bool { return o.grantee == it.grantee && o.grantor == it.grantor }); at >= 0 {
			out[at].privs |= it.privs
		} else {
			out = append(out, it)
		}
	}
	return out
}
