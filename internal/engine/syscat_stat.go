package engine

// The statistics views pg_stat_all_tables, pg_stat_user_tables,
// pg_stat_sys_tables, their pg_statio_ forms and pg_stat_database keep no
// state: their rows are made from the catalog when a statement reads
// them. The engine counts scans, the rows they read and the rows changed
// of each table, and the transactions ended (stat_counters.go); no blocks,
// vacuums or analyzes: those counters are 0, the times NULL; n_live_tup is
// the relation's row count and numbackends the sessions pg_stat_activity
// lists.

// statTables lists the tables and materialized views, each with its
// schema: user relations (public) when user, the catalog's when sys.
func statTables(o *catalogObjects, user, sys bool, row func(rel *catRel)) {
	for _, rel := range o.rels {
		if rel.kind != 'r' && rel.kind != 'm' {
			continue
		}
		if rel.key != "" && user || rel.key == "" && sys {
			row(rel)
		}
	}
}

func pgStatTables(user, sys bool) func(o *catalogObjects, r *catRows) {
	return func(o *catalogObjects, r *catRows) {
		statTables(o, user, sys, func(rel *catRel) {
			var st relStats
			if rel.kind == 'r' && rel.t != nil {
				st.seqScan.Store(rel.t.stat.seqScan.Load())
				st.seqRead.Store(rel.t.stat.seqRead.Load())
				st.idxScan.Store(rel.t.stat.idxScan.Load())
				st.idxFetch.Store(rel.t.stat.idxFetch.Load())
				st.ins, st.upd, st.del = rel.t.stat.ins, rel.t.stat.upd, rel.t.stat.del
			}
			idxScan, idxFetch := statIdx(o, rel), statIdx(o, rel)
			if idxScan != nil {
				idxScan, idxFetch = st.idxScan.Load(), st.idxFetch.Load()
			}
			r.add("relid", rel.oid, "schemaname", rel.schema, "relname", rel.name, "seq_scan", st.seqScan.Load(), "seq_tup_read", st.seqRead.Load(),
				"idx_scan", idxScan, "idx_tup_fetch", idxFetch, "n_tup_ins", st.ins, "n_tup_upd", st.upd, "n_tup_del", st.del,
				"n_tup_hot_upd", 0, "n_live_tup", int64(rel.rows), "n_dead_tup", 0, "n_mod_since_analyze", 0,
				"n_ins_since_vacuum", 0, "vacuum_count", 0, "autovacuum_count", 0, "analyze_count", 0, "autoanalyze_count", 0)
		})
	}
}

// statIdx is 0 for a relation with an index, NULL for one without, as
// PostgreSQL's idx_scan and idx_tup_fetch are.
func statIdx(o *catalogObjects, rel *catRel) any {
	if o.hasIndex(rel) {
		return 0
	}
	return nil
}

func pgStatioTables(user, sys bool) func(o *catalogObjects, r *catRows) {
	return func(o *catalogObjects, r *catRows) {
		statTables(o, user, sys, func(rel *catRel) {
			r.add("relid", rel.oid, "schemaname", rel.schema, "relname", rel.name, "heap_blks_read", 0, "heap_blks_hit", 0,
				"idx_blks_read", statIdx(o, rel), "idx_blks_hit", statIdx(o, rel))
		})
	}
}

func pgStatDatabase(o *catalogObjects, r *catRows) {
	r.add("datid", objectOID("database", DatabaseName), "datname", DatabaseName, "numbackends", len(o.activity),
		"xact_commit", o.e.xacts.commits.Load(), "xact_rollback", o.e.xacts.rollbacks.Load(), "blks_read", 0, "blks_hit", 0, "tup_returned", 0, "tup_fetched", 0,
		"tup_inserted", 0, "tup_updated", 0, "tup_deleted", 0, "conflicts", 0, "temp_files", 0, "temp_bytes", 0,
		"deadlocks", 0, "blk_read_time", 0.0, "blk_write_time", 0.0, "session_time", 0.0, "active_time", 0.0,
		"idle_in_transaction_time", 0.0, "sessions", 0, "sessions_abandoned", 0, "sessions_fatal", 0, "sessions_killed", 0)
}

func init() {
	stat := "relid:oid,schemaname:name,relname:name,seq_scan:bigint,seq_tup_read:bigint,idx_scan:bigint,idx_tup_fetch:bigint," +
		"n_tup_ins:bigint,n_tup_upd:bigint,n_tup_del:bigint,n_tup_hot_upd:bigint,n_live_tup:bigint,n_dead_tup:bigint," +
		"n_mod_since_analyze:bigint,n_ins_since_vacuum:bigint,last_vacuum:timestamp with time zone," +
		"last_autovacuum:timestamp with time zone,last_analyze:timestamp with time zone,last_autoanalyze:timestamp with time zone," +
		"vacuum_count:bigint,autovacuum_count:bigint,analyze_count:bigint,autoanalyze_count:bigint"
	statio := "relid:oid,schemaname:name,relname:name,heap_blks_read:bigint,heap_blks_hit:bigint,idx_blks_read:bigint," +
		"idx_blks_hit:bigint,toast_blks_read:bigint,toast_blks_hit:bigint,tidx_blks_read:bigint,tidx_blks_hit:bigint"
	database := "datid:oid,datname:name,numbackends:integer,xact_commit:bigint," +
		"xact_rollback:bigint,blks_read:bigint,blks_hit:bigint,tup_returned:bigint,tup_fetched:bigint,tup_inserted:bigint," +
		"tup_updated:bigint,tup_deleted:bigint,conflicts:bigint,temp_files:bigint,temp_bytes:bigint,deadlocks:bigint," +
		"checksum_failures:bigint,checksum_last_failure:timestamp with time zone,blk_read_time:double precision," +
		"blk_write_time:double precision,session_time:double precision,active_time:double precision," +
		"idle_in_transaction_time:double precision,sessions:bigint,sessions_abandoned:bigint,sessions_fatal:bigint," +
		"sessions_killed:bigint,stats_reset:timestamp with time zone"
	// Registered here, after syscat.go's init has made catalogRelations
	// of the others.
	add := addCatalogRelation
	add("pg_catalog.pg_stat_all_tables", stat, pgStatTables(true, true))
	add("pg_catalog.pg_stat_user_tables", stat, pgStatTables(true, false))
	add("pg_catalog.pg_stat_sys_tables", stat, pgStatTables(false, true))
	add("pg_catalog.pg_statio_all_tables", statio, pgStatioTables(true, true))
	add("pg_catalog.pg_statio_user_tables", statio, pgStatioTables(true, false))
	add("pg_catalog.pg_statio_sys_tables", statio, pgStatioTables(false, true))
	add("pg_catalog.pg_stat_database", database, pgStatDatabase)
}
