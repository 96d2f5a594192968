package engine

import (
	"strconv"
)

// information_schema.routine_privileges and role_routine_grants (the same
// rows for a superuser): EXECUTE on each function, procedure and aggregate
// CREATE made, from its proacl (routine_acl.go): the owner's, grantable, and
// PUBLIC's while the routine has the default, else one row per item, with
// its grantor.

func init() {
	cols := "grantor:sql_identifier,grantee:sql_identifier,specific_catalog:sql_identifier,specific_schema:sql_identifier," +
		"specific_name:sql_identifier,routine_catalog:sql_identifier,routine_schema:sql_identifier,routine_name:sql_identifier," +
		"privilege_type:character_data,is_grantable:yes_or_no"
	for _, name := range []string{"information_schema.routine_privileges", "information_schema.role_routine_grants"} {
		catalogColumns[name], catalogRowFuncs[name] = cols, infoRoutinePrivileges
		catalogRelations[name] = catalogRelation{cols: catalogCols(cols), rows: infoRoutinePrivileges}
	}
}

func infoRoutinePrivileges(o *catalogObjects, r *catRows) {
	for _, p := range o.procs {
		if p.kind != "" && p.kind != "p" && p.kind != "a" {
			continue // an aggregate has EXECUTE too, listed as PostgreSQL lists it
		}
		sc, name := o.e.splitObject(p.name)
		owner := SuperuserName
		for _, ro := range o.roles {
			if ro.oid == p.owner && p.owner != 0 {
				owner = ro.name
			}
		}
		add := func(grantor, grantee string, grantable bool) {
			if grantee == "" {
				grantee = "PUBLIC"
			}
			r.add("grantor", grantor, "grantee", grantee, "specific_catalog", DatabaseName, "specific_schema", sc,
				"specific_name", name+"_"+strconv.FormatUint(uint64(p.oid), 10), "routine_catalog", DatabaseName,
				"routine_schema", sc, "routine_name", name, "privilege_type", "EXECUTE", "is_grantable", yesNo(grantable))
		}
		if p.acl == nil {
			add(owner, owner, true)
			add(owner, "", false)
			continue
		}
		// An item is grantable when held with its option or by a member
		// of the owner, as PostgreSQL's view reads it.
		for _, it := range p.execs {
			add(it.grantor, it.grantee, it.privs.Options() != 0 || (it.grantee != "" && o.e.hasPrivsOf(it.grantee, owner)))
		}
	}
}
