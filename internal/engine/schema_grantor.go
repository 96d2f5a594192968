package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A schema's ACL items carry their grantor as a relation's do
// (acl_items.go): sc.grants keeps an item the owner granted under its
// grantee's name and one another role granted, holding a grant option,
// under grantee + "\x00" + grantor, sc.order all of them in the order of
// their first grant. GRANT and REVOKE run PostgreSQL's ExecGrant_Namespace
// over that list: the grantor is the role the user grants as
// (bestGrantor), what it gives is what it holds the options of, and a
// REVOKE taking an option takes what was granted with it (2BP01 unless
// CASCADE).

// aclItems is sc's ACL in order, the owner's own item in its place
// holding every privilege while it is implicit.
func (sc *schema) aclItems() []aclItem {
	keys, privs := sc.items()
	out := make([]aclItem, len(keys))
	for i, k := range keys {
		grantee, grantor := splitItemKey(k, sc.owner)
		out[i] = aclItem{grantee: grantee, grantor: grantor, privs: privs[i]}
	}
	return out
}

// withACLItems is sc's grants and order holding acl: the owner's own item
// stays implicit while it holds every privilege and was implicit.
func (sc *schema) withACLItems(acl []aclItem) (map[string]sql.Privilege, []string) {
	explicit := sc.ownExplicit()
	if !explicit {
		own := slices.IndexFunc(acl, func(it aclItem) bool { return it.grantee == sc.owner && it.grantor == sc.owner })
		explicit = own < 0 || acl[own].privs.Plain()&schemaPrivs != schemaPrivs
	}
	g := map[string]sql.Privilege{}
	if explicit {
		g[ownItemMark] = sql.PrivUsage
	}
	order := make([]string, 0, len(acl))
	for _, it := range acl {
		k := itemKey(it.grantee, it.grantor, sc.owner)
		p := it.privs
		if !explicit && k == sc.owner {
			p &^= schemaPrivs // its place alone, and the options given it
		}
		g[k] = p
		order = append(order, k)
	}
	return g, order
}

// heldGrants is what each grantee holds on sc, from every grantor: sc's
// grants themselves while the owner granted every item.
func (sc *schema) heldGrants() map[string]sql.Privilege { return granteeUnion(sc.grants) }

// namesRole reports whether role is a grantee or a grantor of an item of
// sc other than the owner: a dependency PostgreSQL records.
func (sc *schema) namesRole(role string) bool {
	if sc.grants == nil {
		return false
	}
	return slices.Contains(aclRoles(sc.aclItems(), sc.owner), role)
}

// grantSchemaBy runs g on the schema sc for user: the items it changes
// are those of the role user grants as.
func (e *Engine) grantSchemaBy(g *sql.GrantSchema, sc *schema, user string) ([]aclItem, string, error) {
	acl := sc.aclItems()
	grantor, avail := e.bestGrantor(user, g.Privs, acl, sc.owner)
	privs, w, err := e.restrictObjectGrant(g.Revoke, g.Privs == schemaPrivs && g.All, g.Privs, schemaPrivs, grantor, avail, sc.owner, acl, "schema", sc.name)
	if err != nil || privs == 0 {
		return acl, w, err
	}
	next, err := e.mergeGrant(acl, g.Revoke, g.Option, g.Cascade, g.Roles, privs, grantor, sc.owner)
	return next, w, err
}

// restrictObjectGrant is PostgreSQL's restrict_and_check_grant for an
// object other than a relation (what name): the privileges of privs
// grantor may give or take, those it holds the grant options of, with a
// WARNING when that is not all of them (all: GRANT ALL, which warns only
// when none is); a grantor holding no option and no privilege of whole on
// it gets 42501.
func (e *Engine) restrictObjectGrant(revoke, all bool, privs, whole sql.Privilege, grantor string, avail sql.Privilege, owner string, acl []aclItem, what, name string) (sql.Privilege, string, error) {
	if avail == 0 && !e.hasPrivsOf(grantor, owner) && e.aclMask(acl, grantor, owner, whole|sql.OptionsOf(whole)) == 0 {
		return 0, "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", what, name)
	}
	this := privs & avail.Options()
	switch {
	case this == 0 && revoke:
		return 0, fmt.Sprintf("no privileges could be revoked for %q", name), nil
	case this == 0:
		return 0, fmt.Sprintf("no privileges were granted for %q", name), nil
	case !all && this != privs && revoke:
		return this, fmt.Sprintf("not all privileges could be revoked for %q", name), nil
	case !all && this != privs:
		return this, fmt.Sprintf("not all privileges were granted for %q", name), nil
	}
	return this, "", nil
}
