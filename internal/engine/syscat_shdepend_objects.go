package engine

// pg_shdepend's rows for objects other than relations keep no state of
// their own: they are read from the owners and grants of schemas,
// routines and types and from policies' roles, as PostgreSQL records
// them (deptype 'o' an owner other than the bootstrap superuser, 'a' a
// role holding privileges by a GRANT, 'r' a role a policy names).

// pgShdependObjects adds the rows of schemas, routines, types and
// policies to pg_shdepend.
func pgShdependObjects(o *catalogObjects, r *catRows, db uint32) {
	add := func(classid, objid uint32, role, deptype string) {
		r.add("dbid", db, "classid", classid, "objid", objid, "objsubid", 0, "refclassid", uint32(1260),
			"refobjid", o.roleOID(role), "deptype", deptype)
	}
	for _, sc := range o.e.aclSchemas() {
		// pg_database_owner, public's owner, is pinned: no row names it.
		if sc.owner != SuperuserName && sc.owner != databaseOwnerRole {
			add(2615, schemaOID(sc.name), sc.owner, "o")
		}
		// Grantees and grantors alike, as PostgreSQL's aclmembers.
		for _, role := range aclRoles(sc.aclItems(), sc.owner) {
			if role != "" && role != databaseOwnerRole {
				add(2615, schemaOID(sc.name), role, "a")
			}
		}
	}
	for _, p := range o.procs {
		if p.key == "" {
			continue
		}
		owner := SuperuserName
		for _, ro := range o.roles {
			if ro.oid == p.owner && p.owner != 0 {
				owner = ro.name
			}
		}
		if p.owner != 0 {
			add(1255, p.oid, owner, "o")
		}
		// Grantees and grantors alike, as PostgreSQL's aclmembers, of a
		// routine the built-in superuser owns too; that superuser is
		// pinned, never recorded.
		for _, role := range aclRoles(p.execs, owner) {
			if role != "" && role != SuperuserName {
				add(1255, p.oid, role, "a")
			}
		}
	}
	for _, t := range o.types {
		if t.kind.IsArray() {
			continue // an array type follows its element type unrecorded
		}
		if role, ok := o.e.typeOwners[t.name]; ok && role != SuperuserName {
			add(1247, t.oid, role, "o")
		}
		if _, ok := o.e.typeACLs[t.name]; ok {
			// Grantees and grantors alike, as PostgreSQL's aclmembers.
			for _, role := range aclRoles(o.e.typeItems(t.name), o.e.typeACLOwner(t.name)) {
				if role != "" && role != SuperuserName {
					add(1247, t.oid, role, "a")
				}
			}
		}
	}
	o.eachPolicy(func(_ *catRel, p *policy) {
		for _, role := range p.roles {
			if role != "" {
				add(3256, objectOID("policy", p.table+"."+p.Name), role, "r")
			}
		}
	})
}
