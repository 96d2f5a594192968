package engine

// The catalogs of object kinds the engine does not have hold no rows:
// psql's describe commands over them (\dc, \des, \det, \deu, \dew,
// \dl, \lo_list, \drds, \dRp, \dRs, …) then print what PostgreSQL prints
// when there are none, instead of failing on a relation that does not
// exist. Each keeps PostgreSQL 15's columns and oid.
var absentCatalogs = []struct {
	name string
	oid  uint32
	cols string
}{
	{"pg_conversion", 2607, "oid:oid,conname:name,connamespace:oid,conowner:oid,conforencoding:integer,contoencoding:integer,conproc:regproc,condefault:boolean"},
	{"pg_db_role_setting", 2964, "setdatabase:oid,setrole:oid,setconfig:text[]"},
	{"pg_foreign_data_wrapper", 2328, "oid:oid,fdwname:name,fdwowner:oid,fdwhandler:oid,fdwvalidator:oid,fdwacl:aclitem[],fdwoptions:text[]"},
	{"pg_foreign_server", 1417, "oid:oid,srvname:name,srvowner:oid,srvfdw:oid,srvtype:text,srvversion:text,srvacl:aclitem[],srvoptions:text[]"},
	{"pg_foreign_table", 3118, "ftrelid:oid,ftserver:oid,ftoptions:text[]"},
	{"pg_user_mapping", 1418, "oid:oid,umuser:oid,umserver:oid,umoptions:text[]"},
	{"pg_user_mappings", 0, "umid:oid,srvid:oid,srvname:name,umuser:oid,usename:name,umoptions:text[]"},
	{"pg_largeobject_metadata", 2995, "oid:oid,lomowner:oid,lomacl:aclitem[]"},
	{"pg_largeobject", 2613, "loid:oid,pageno:integer,data:bytea"},
	{"pg_publication", 6104, "oid:oid,pubname:name,pubowner:oid,puballtables:boolean,pubinsert:boolean,pubupdate:boolean,pubdelete:boolean,pubtruncate:boolean,pubviaroot:boolean"},
	{"pg_publication_rel", 6106, "oid:oid,prpubid:oid,prrelid:oid,prqual:pg_node_tree,prattrs:int2vector"},
	{"pg_publication_namespace", 6237, "oid:oid,pnpubid:oid,pnnspid:oid"},
	{"pg_publication_tables", 0, "pubname:name,schemaname:name,tablename:name,attnames:name[],rowfilter:text"},
	{"pg_subscription", 6100, "oid:oid,subdbid:oid,subskiplsn:pg_lsn,subname:name,subowner:oid,subenabled:boolean,subbinary:boolean,substream:boolean,subtwophasestate:\"char\",subdisableonerr:boolean,subconninfo:text,subslotname:name,subsynccommit:text,subpublications:text[]"},
	{"pg_subscription_rel", 6102, "srsubid:oid,srrelid:oid,srsubstate:\"char\",srsublsn:pg_lsn"},
	{"pg_transform", 3576, "oid:oid,trftype:oid,trflang:oid,trffromsql:regproc,trftosql:regproc"},
	{"pg_init_privs", 3394, "objoid:oid,classoid:oid,objsubid:integer,privtype:\"char\",initprivs:aclitem[]"},
	{"pg_seclabel", 3596, "objoid:oid,classoid:oid,objsubid:integer,provider:text,label:text"},
	{"pg_shseclabel", 3592, "objoid:oid,classoid:oid,provider:text,label:text"},
	// Replication and two-phase commit, which the engine does not do:
	// monitoring dashboards read these views and find nothing, as on a
	// PostgreSQL server without standbys, slots or prepared transactions.
	{"pg_replication_slots", 0, "slot_name:name,plugin:name,slot_type:text,datoid:oid,database:name,temporary:boolean,active:boolean,active_pid:integer,xmin:xid,catalog_xmin:xid,restart_lsn:pg_lsn,confirmed_flush_lsn:pg_lsn,wal_status:text,safe_wal_size:bigint,two_phase:boolean"},
	{"pg_stat_replication", 0, "pid:integer,usesysid:oid,usename:name,application_name:text,client_addr:inet,client_hostname:text,client_port:integer,backend_start:timestamptz,backend_xmin:xid,state:text,sent_lsn:pg_lsn,write_lsn:pg_lsn,flush_lsn:pg_lsn,replay_lsn:pg_lsn,write_lag:interval,flush_lag:interval,replay_lag:interval,sync_priority:integer,sync_state:text,reply_time:timestamptz"},
	{"pg_stat_replication_slots", 0, "slot_name:text,spill_txns:bigint,spill_count:bigint,spill_bytes:bigint,stream_txns:bigint,stream_count:bigint,stream_bytes:bigint,total_txns:bigint,total_bytes:bigint,stats_reset:timestamptz"},
	{"pg_stat_wal_receiver", 0, "pid:integer,status:text,receive_start_lsn:pg_lsn,receive_start_tli:integer,written_lsn:pg_lsn,flushed_lsn:pg_lsn,received_tli:integer,last_msg_send_time:timestamptz,last_msg_receipt_time:timestamptz,latest_end_lsn:pg_lsn,latest_end_time:timestamptz,slot_name:text,sender_host:text,sender_port:integer,conninfo:text"},
	{"pg_stat_subscription", 0, "subid:oid,subname:name,pid:integer,relid:oid,received_lsn:pg_lsn,last_msg_send_time:timestamptz,last_msg_receipt_time:timestamptz,latest_end_lsn:pg_lsn,latest_end_time:timestamptz"},
	{"pg_prepared_xacts", 0, "transaction:xid,gid:text,prepared:timestamptz,owner:name,database:name"},
	// The progress of maintenance commands, which take no time here.
	{"pg_stat_progress_vacuum", 0, "pid:integer,datid:oid,datname:name,relid:oid,phase:text,heap_blks_total:bigint,heap_blks_scanned:bigint,heap_blks_vacuumed:bigint,index_vacuum_count:bigint,max_dead_tuples:bigint,num_dead_tuples:bigint"},
	{"pg_stat_progress_analyze", 0, "pid:integer,datid:oid,datname:name,relid:oid,phase:text,sample_blks_total:bigint,sample_blks_scanned:bigint,ext_stats_total:bigint,ext_stats_computed:bigint,child_tables_total:bigint,child_tables_done:bigint,current_child_table_relid:oid"},
	{"pg_stat_progress_cluster", 0, "pid:integer,datid:oid,datname:name,relid:oid,command:text,phase:text,cluster_index_relid:oid,heap_tuples_scanned:bigint,heap_tuples_written:bigint,heap_blks_total:bigint,heap_blks_scanned:bigint,index_rebuild_count:bigint"},
	{"pg_stat_progress_basebackup", 0, "pid:integer,phase:text,backup_total:bigint,backup_streamed:bigint,tablespaces_total:bigint,tablespaces_streamed:bigint"},
}

func init() {
	empty := func(*catalogObjects, *catRows) {}
	for _, c := range absentCatalogs {
		name := "pg_catalog." + c.name
		catalogColumns[name], catalogRowFuncs[name] = c.cols, empty
		catalogRelations[name] = catalogRelation{cols: catalogCols(c.cols), rows: empty}
		if c.oid != 0 {
			catalogRelOIDs[c.name] = c.oid
		}
	}
}
