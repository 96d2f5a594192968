package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// infoTablePrivileges computes information_schema.table_privileges (and
// role_table_grants, the same rows for a superuser): a row per privilege
// a role holds on a table or view, from the relation's grants as relACL
// reads them. The owner holds every privilege its own item holds (all
// of them unless a REVOKE took some, acl_owner.go), grantable; a role granted
// some holds those, from their grantor, grantable when granted WITH GRANT
// OPTION; PUBLIC is the grantee PUBLIC.
func infoTablePrivileges(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.key == "" || rel.kind != 'r' && rel.kind != 'p' && rel.kind != 'v' {
			continue
		}
		owner := o.e.relOwner(rel.key)
		add := func(grantor, grantee string, p sql.Privilege) {
			if grantee == "" {
				grantee = "PUBLIC"
			}
			for _, x := range tablePrivilegeNames {
				if p&x.p == 0 {
					continue
				}
				grantable := p.Options()&x.p != 0
				r.add("grantor", grantor, "grantee", grantee, "table_catalog", DatabaseName, "table_schema", rel.schema,
					"table_name", rel.name, "privilege_type", x.name, "is_grantable", yesNo(grantable),
					"with_hierarchy", yesNo(x.p == sql.PrivSelect))
			}
		}
		add(owner, owner, (sql.PrivTableAll & o.e.ownerPlainOn(rel.key)).WithOption())
		for _, it := range o.e.relItems(rel.key) {
			if it.grantee != owner || it.grantor != owner {
				add(it.grantor, it.grantee, it.privs)
			}
		}
	}
}

// grantees are the roles other than owner holding some privilege in g,
// sorted.
func grantees(g map[string]sql.Privilege, owner string) []string {
	roles := make([]string, 0, len(g))
	for role, p := range g {
		if role != owner && p != 0 && role != ownItemMark {
			roles = append(roles, role)
		}
	}
	slices.Sort(roles)
	return roles
}

// tablePrivilegeNames are the privileges on a table as information_schema
// names them, in PostgreSQL's order.
var tablePrivilegeNames = []struct {
	p    sql.Privilege
	name string
}{{sql.PrivInsert, "INSERT"}, {sql.PrivSelect, "SELECT"}, {sql.PrivUpdate, "UPDATE"}, {sql.PrivDelete, "DELETE"},
	{sql.PrivTruncate, "TRUNCATE"}, {sql.PrivReferences, "REFERENCES"}, {sql.PrivTrigger, "TRIGGER"}}
