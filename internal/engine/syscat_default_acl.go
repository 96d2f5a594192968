package engine

import (
	"cmp"
	"maps"
	"slices"
)

// pg_default_acl lists the default privileges (default_acl.go): a row
// per entry, its role, its schema (0 for a global entry), its kind and
// its ACL, as psql's \ddp reads them.
func init() {
	addCatalogRelation("pg_catalog.pg_default_acl", "oid:oid,defaclrole:oid,defaclnamespace:oid,defaclobjtype:\"char\",defaclacl:aclitem[]",
		func(o *catalogObjects, r *catRows) {
			keys := slices.SortedFunc(maps.Keys(o.e.defACLs), func(a, b defACLKey) int {
				return cmp.Or(cmp.Compare(a.role, b.role), cmp.Compare(a.schema, b.schema), cmp.Compare(a.kind, b.kind))
			})
			for _, k := range keys {
				var nsp uint32
				if k.schema != "" {
					nsp = schemaOID(k.schema)
				}
				r.add("oid", objectOID("default acl", defACLStoreName(k)), "defaclrole", o.e.roleOID(k.role),
					"defaclnamespace", nsp, "defaclobjtype", string(k.kind), "defaclacl", defACLText(k, o.e.defACLs[k]))
			}
		})
	catalogRelOIDs["pg_default_acl"] = 826
}
