package engine

import (
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// relACL is pg_class.relacl of rel, as PostgreSQL prints its aclitem[]
// (psql's \dp and \z): NULL while no GRANT names the relation (the
// default privileges), else the owner's item (every privilege) and one
// per (grantee, grantor), PUBLIC's as "=r/grantor", in the order of
// the grants as PostgreSQL keeps them (grant_order.go); GRANT ALL reads
// as arwdDxt and a sequence's privileges as rwU.
func (o *catalogObjects) relACL(rel *catRel) any {
	if _, ok := o.e.grants[rel.key]; !ok || rel.key == "" {
		return nil
	}
	owner := o.e.relOwner(rel.key)
	if o.e.ownItemExplicit(rel.key) {
		// Every item in its place, the owner's too (acl_owner.go).
		acl := []string{}
		for _, it := range o.e.relItems(rel.key) {
			acl = append(acl, aclRole(it.grantee)+"="+aclLetters(it.privs)+"/"+aclRole(it.grantor))
		}
		return acl
	}
	// The owner's own item holds every privilege, and the grant options
	// an owner change merged into it (acl_newowner.go).
	// Items a default privilege sorted before it come first (acl_lead.go).
	var acl []string
	own := aclRole(owner) + "=" + aclLetters(o.e.ownerItem(rel.key)) + "/" + aclRole(owner)
	for _, it := range o.e.relItems(rel.key) {
		if it.grantee == owner && it.grantor == owner {
			continue
		}
		if !it.lead && own != "" {
			acl, own = append(acl, own), ""
		}
		acl = append(acl, aclRole(it.grantee)+"="+aclLetters(it.privs)+"/"+aclRole(it.grantor))
	}
	if own != "" {
		acl = append(acl, own)
	}
	return acl
}

// aclRole is a role's name in an aclitem: "" for PUBLIC, quoted as an
// identifier when it needs to be.
func aclRole(role string) string {
	if role == "" {
		return ""
	}
	return quoteACLName(role)
}

// aclLetters are the privileges p as aclitem letters, in PostgreSQL's
// order, each held with its grant option followed by "*".
func aclLetters(p sql.Privilege) string {
	opts := p.Options()
	var out []byte
	add := func(c byte, option bool) {
		out = append(out, c)
		if option {
			out = append(out, '*')
		}
	}
	for _, x := range []struct {
		p sql.Privilege
		c byte
	}{{sql.PrivInsert, 'a'}, {sql.PrivSelect, 'r'}, {sql.PrivUpdate, 'w'}, {sql.PrivDelete, 'd'}, {sql.PrivTruncate, 'D'}, {sql.PrivReferences, 'x'}, {sql.PrivTrigger, 't'}, {sql.PrivUsage, 'U'}} {
		if p&x.p != 0 {
			add(x.c, opts&x.p != 0)
		}
	}
	return string(out)
}

// quoteACLName quotes a role's name as aclitem's output does: in double
// quotes when it holds a character other than a letter, digit or _.
func quoteACLName(n string) string {
	plain := true
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80) {
			plain = false
		}
	}
	if plain {
		return n
	}
	out := []byte{'"'}
	for i := 0; i < len(n); i++ {
		if n[i] == '"' {
			out = append(out, '"')
		}
		out = append(out, n[i])
	}
	return string(append(out, '"'))
}

// catACLItem is the aclitem of s, an item the catalog made in
// aclitem's text form.
func catACLItem(s string) value.Value {
	a, _, err := value.ParseACLItem(s)
	if err != nil {
		panic("engine: catalog aclitem " + s + ": " + err.Error())
	}
	return value.NewACLItem(a)
}

// An aclitem's input without a grantor takes the bootstrap superuser's
// name, which here is deltaview's.
func init() { value.ACLDefaultGrantor = SuperuserName }

// nspACL is pg_namespace.nspacl of the schema n: for a schema CREATE
// SCHEMA made, NULL until a GRANT or REVOKE names it, then the owner's
// item (USAGE and CREATE) and one per role granted something, in the
// order of their grants (schemaGrantees); for the schemas every role may use, the
// owner's item and PUBLIC's USAGE, as PostgreSQL's initial ACL of
// pg_catalog, information_schema and public reads (pg_toast has none).
func (o *catalogObjects) nspACL(n string) any {
	owner := aclRole(o.e.schemaOwner(n))
	sc := o.e.schemaNamed(n)
	switch {
	case sc == nil && n == "pg_toast":
		return nil
	case sc == nil:
		return []string{owner + "=UC/" + owner, "=U/" + owner}
	case sc.grants == nil:
		return nil
	}
	// The owner's item goes where the order keeps the owner (after the
	// items default privileges sorted before it, acl_lead.go), else first;
	// an implicit one holds USAGE and CREATE (schema_owner_item.go).
	acl := []string{}
	for _, it := range sc.aclItems() {
		acl = append(acl, aclRole(it.grantee)+"="+schemaLetters(it.privs)+"/"+aclRole(it.grantor))
	}
	return acl
}
