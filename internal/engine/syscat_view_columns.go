package engine

// information_schema.view_column_usage and pg_depend's rows of the views'
// rules keep no state: they are made, when a statement reads them, from
// the columns each view reads (viewColumnUses), as PostgreSQL 15 records
// them for its views' _RETURN rules.

// infoViewColumnUsage lists the columns of tables and views each view
// names, as PostgreSQL does: a materialized view is neither a view nor a
// table there, and a relation read as a whole lists no column.
func infoViewColumnUsage(o *catalogObjects, r *catRows) {
	for _, v := range o.rels {
		if v.kind != 'v' || v.key == "" || o.e.named[v.key] == nil {
			continue
		}
		for _, u := range o.e.viewColumnUses(v.key) {
			t := o.relKeyed(u.rel)
			if u.col < 0 || t == nil || u.col >= len(t.cols) || t.kind != 'r' && t.kind != 'v' && t.kind != 'p' {
				continue
			}
			r.add("view_catalog", DatabaseName, "view_schema", v.schema, "view_name", v.name,
				"table_catalog", DatabaseName, "table_schema", t.schema, "table_name", t.name, "column_name", t.cols[u.col].name)
		}
	}
}

// pgDependViews adds pg_depend's rows of each view's and materialized
// view's _RETURN rule: on the view itself (internal, and normal as its
// query names it), on each column of a relation its query names (the
// relation as a whole when it names none of its columns) and on the
// functions of statements it calls.
func pgDependViews(o *catalogObjects, r *catRows) {
	ruleClass, classClass, procClass := uint32(catalogRelOIDs["pg_rewrite"]), uint32(catalogRelOIDs["pg_class"]), uint32(catalogRelOIDs["pg_proc"])
	for _, v := range o.rels {
		if v.kind != 'v' && v.kind != 'm' || v.key == "" {
			continue
		}
		rule := ruleOID(v.key, "_RETURN")
		dep := func(refclass, refobj uint32, sub int, deptype string) {
			r.add("classid", ruleClass, "objid", rule, "objsubid", 0, "refclassid", refclass, "refobjid", refobj,
				"refobjsubid", sub, "deptype", deptype)
		}
		dep(classClass, v.oid, 0, "i")
		dep(classClass, v.oid, 0, "n")
		for _, u := range o.e.viewColumnUses(v.key) {
			if t := o.relKeyed(u.rel); t != nil && t != v {
				sub := u.col + 1
				if u.col >= 0 && u.col < len(t.cols) {
					sub = int(t.num(u.col))
				}
				dep(classClass, t.oid, sub, "n")
			}
		}
		for _, sig := range o.e.funcDeps[v.key] {
			for _, p := range o.procs {
				if p.key == sig {
					dep(procClass, p.oid, 0, "n")
				}
			}
		}
	}
}

func init() {
	addCatalogRelation("information_schema.view_column_usage", "view_catalog:sql_identifier,view_schema:sql_identifier,view_name:sql_identifier,"+
		"table_catalog:sql_identifier,table_schema:sql_identifier,table_name:sql_identifier,column_name:sql_identifier", infoViewColumnUsage)
}
