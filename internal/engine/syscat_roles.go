package engine

// The catalogs of role membership (role_members.go): pg_auth_members, the
// group view pg_group and information_schema's applicable_roles,
// enabled_roles and administrable_role_authorizations, computed for a
// superuser as every information_schema view is (every role is enabled
// and applicable). pg_shadow lists the login roles as pg_user does, their
// password verifiers withheld.

func init() {
	add := addCatalogRelation
	add("pg_catalog.pg_auth_members", "roleid:oid,member:oid,grantor:oid,admin_option:boolean", pgAuthMembers)
	catalogRelOIDs["pg_auth_members"] = 1261
	add("pg_catalog.pg_group", "groname:name,grosysid:oid,grolist:oid[]", pgGroup)
	add("pg_catalog.pg_shadow", "usename:name,usesysid:oid,usecreatedb:boolean,usesuper:boolean,userepl:boolean,usebypassrls:boolean,"+
		"passwd:text,valuntil:timestamp with time zone,useconfig:text[]", pgShadow)
	const cols = "grantee:sql_identifier,role_name:sql_identifier,is_grantable:yes_or_no"
	add("information_schema.applicable_roles", cols, func(o *catalogObjects, r *catRows) { infoApplicableRoles(o, r, false) })
	add("information_schema.administrable_role_authorizations", cols, func(o *catalogObjects, r *catRows) { infoApplicableRoles(o, r, true) })
	add("information_schema.enabled_roles", "role_name:sql_identifier", func(o *catalogObjects, r *catRows) {
		for _, ro := range o.roles {
			r.add("role_name", ro.name)
		}
	})
}

// roleOID is the oid of the role named name in the catalog's roles; 0
// for none.
func (o *catalogObjects) roleOID(name string) uint32 {
	for _, ro := range o.roles {
		if ro.name == name {
			return ro.oid
		}
	}
	return 0
}

func pgAuthMembers(o *catalogObjects, r *catRows) {
	for _, ro := range o.roles {
		for _, g := range ro.memberOf {
			r.add("roleid", o.roleOID(g.role), "member", ro.oid, "grantor", o.roleOID(g.grantor), "admin_option", g.admin)
		}
	}
}

func pgGroup(o *catalogObjects, r *catRows) {
	for _, ro := range o.roles {
		if ro.login {
			continue
		}
		list := []uint32{}
		for _, m := range o.roles {
			for _, g := range m.memberOf {
				if g.role == ro.name {
					list = append(list, m.oid)
				}
			}
		}
		r.add("groname", ro.name, "grosysid", ro.oid, "grolist", list)
	}
}

func pgShadow(o *catalogObjects, r *catRows) {
	for _, ro := range o.roles {
		if ro.login {
			r.add("usename", ro.name, "usesysid", ro.oid, "usecreatedb", ro.super, "usesuper", ro.super, "userepl", ro.super,
				"usebypassrls", ro.bypassRLS)
		}
	}
}

// infoApplicableRoles lists every membership, grantee then role; only
// those WITH ADMIN OPTION when admin (administrable_role_authorizations).
func infoApplicableRoles(o *catalogObjects, r *catRows, admin bool) {
	for _, ro := range o.roles {
		for _, g := range ro.memberOf {
			if admin && !g.admin {
				continue
			}
			r.add("grantee", ro.name, "role_name", g.role, "is_grantable", yesNo(g.admin))
		}
	}
}
