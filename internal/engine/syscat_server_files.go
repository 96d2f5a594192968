package engine

// The catalogs of what a PostgreSQL server reads from its files and keeps
// in shared memory, which deltaview has not: no pg_hba.conf, pg_ident.conf
// or postgresql.conf (its settings are SET and deltaview's options), no
// shared memory segments, no memory contexts (SHOW VIEWS reports each
// view's memory), no security labels, parameter privileges or
// replication origins. Each answers with PostgreSQL 15's columns and no
// rows, as a server with empty files would, except pg_config, which holds
// the version deltaview speaks as; and pg_shdepend, which records the
// roles relations depend on: their owner (deptype o) and the roles
// granted privileges on them (a).

func init() {
	add := addCatalogRelation
	none := func(*catalogObjects, *catRows) {}
	for _, c := range []struct{ name, cols string }{
		{"pg_hba_file_rules", "line_number:integer,type:text,database:text[],user_name:text[],address:text,netmask:text,auth_method:text,options:text[],error:text"},
		{"pg_ident_file_mappings", "line_number:integer,map_name:text,sys_name:text,pg_username:text,error:text"},
		{"pg_file_settings", "sourcefile:text,sourceline:integer,seqno:integer,name:text,setting:text,applied:boolean,error:text"},
		{"pg_shmem_allocations", "name:text,off:bigint,size:bigint,allocated_size:bigint"},
		{"pg_backend_memory_contexts", "name:text,ident:text,parent:text,level:integer,total_bytes:bigint,total_nblocks:bigint,free_bytes:bigint,free_chunks:bigint,used_bytes:bigint"},
		{"pg_parameter_acl", "oid:oid,parname:text,paracl:aclitem[]"},
		{"pg_replication_origin", "roident:oid,roname:text"},
		{"pg_replication_origin_status", "local_id:oid,external_id:text,remote_lsn:pg_lsn,local_lsn:pg_lsn"},
		{"pg_seclabels", "objoid:oid,classoid:oid,objsubid:integer,objtype:text,objnamespace:oid,objname:text,provider:text,label:text"},
	} {
		add("pg_catalog."+c.name, c.cols, none)
	}
	catalogRelOIDs["pg_parameter_acl"], catalogRelOIDs["pg_replication_origin"] = 6243, 6000
	add("pg_catalog.pg_config", "name:text,setting:text", func(_ *catalogObjects, r *catRows) {
		r.add("name", "VERSION", "setting", "PostgreSQL "+ServerVersion)
	})
	add("pg_catalog.pg_shdepend", "dbid:oid,classid:oid,objid:oid,objsubid:integer,refclassid:oid,refobjid:oid,deptype:\"char\"", pgShdepend)
	catalogRelOIDs["pg_shdepend"] = 1214
	// information_schema's views over foreign data wrappers, which the
	// engine does not have.
	for _, c := range []struct{ name, cols string }{
		{"_pg_foreign_data_wrappers", "oid:oid,fdwowner:oid,fdwoptions:text[],foreign_data_wrapper_catalog:sql_identifier,foreign_data_wrapper_name:sql_identifier,authorization_identifier:sql_identifier,foreign_data_wrapper_language:character_data"},
		{"_pg_foreign_servers", "oid:oid,srvoptions:text[],foreign_server_catalog:sql_identifier,foreign_server_name:sql_identifier,foreign_data_wrapper_catalog:sql_identifier,foreign_data_wrapper_name:sql_identifier,foreign_server_type:character_data,foreign_server_version:character_data,authorization_identifier:sql_identifier"},
		{"_pg_foreign_table_columns", "nspname:name,relname:name,attname:name,attfdwoptions:text[]"},
		{"_pg_foreign_tables", "foreign_table_catalog:sql_identifier,foreign_table_schema:sql_identifier,foreign_table_name:sql_identifier,ftoptions:text[],foreign_server_catalog:sql_identifier,foreign_server_name:sql_identifier,authorization_identifier:sql_identifier"},
		{"_pg_user_mappings", "oid:oid,umoptions:text[],umuser:oid,authorization_identifier:sql_identifier,foreign_server_catalog:sql_identifier,foreign_server_name:sql_identifier,srvowner:sql_identifier"},
	} {
		add("information_schema."+c.name, c.cols, none)
	}
	// role_column_grants holds, for a superuser, column_privileges' rows,
	// as role_table_grants holds table_privileges'.
	add("information_schema.role_column_grants", "grantor:sql_identifier,grantee:sql_identifier,table_catalog:sql_identifier,table_schema:sql_identifier,"+
		"table_name:sql_identifier,column_name:sql_identifier,privilege_type:character_data,is_grantable:yes_or_no", infoColumnPrivileges)
}

// pgShdepend lists a row per relation a role other than the built-in
// superuser owns, and per role other than its owner granted privileges
// on one, as PostgreSQL records them (the bootstrap superuser's
// ownerships are not recorded).
func pgShdepend(o *catalogObjects, r *catRows) {
	db := objectOID("database", DatabaseName)
	for _, rel := range o.rels {
		if rel.key == "" || rel.kind == 'i' || rel.kind == 'I' || rel.kind == 'c' {
			continue // an index or a row type follows its relation's owner unrecorded
		}
		owner := o.e.relOwner(rel.key)
		if owner != SuperuserName {
			r.add("dbid", db, "classid", uint32(1259), "objid", rel.oid, "objsubid", 0, "refclassid", uint32(1260),
				"refobjid", o.roleOID(owner), "deptype", "o")
		}
		for _, role := range aclRoles(o.e.relItems(rel.key), owner) {
			if role != "" {
				r.add("dbid", db, "classid", uint32(1259), "objid", rel.oid, "objsubid", 0, "refclassid", uint32(1260),
					"refobjid", o.roleOID(role), "deptype", "a")
			}
		}
	}
	pgShdependObjects(o, r, db)
}
