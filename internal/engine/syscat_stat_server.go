package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// The statistics views of indexes, sequences and the server's processes
// keep no state: their rows are made from the catalog when a statement
// reads them, as syscat_stat.go's are. The engine counts scans through a
// table's indexes, not through each index: an index's idx_scan,
// idx_tup_read and idx_tup_fetch are its table's when the table has that
// one index, 0 otherwise. The engine has no buffers, WAL, archiver,
// checkpointer, standbys, SLRU caches, SSL or GSSAPI: those counters are
// the 0 (and the NULLs) PostgreSQL shows for an idle server, their
// stats_reset the time the server started.

// statIndexes lists the indexes of tables and materialized views, each
// with its table: user relations when user, the catalog's when sys.
func statIndexes(o *catalogObjects, user, sys bool, row func(ix, on *catRel)) {
	for _, rel := range o.rels {
		on := rel.on
		if rel.kind != 'i' || on == nil || on.kind != 'r' && on.kind != 'm' {
			continue
		}
		if on.key != "" && user || on.key == "" && sys {
			row(rel, on)
		}
	}
}

// indexCounts are the scans through index ix of table on and the rows
// they read: its table's when it is the table's one index.
func indexCounts(o *catalogObjects, ix, on *catRel) (scans, rows int64) {
	if on.kind != 'r' || on.t == nil {
		return 0, 0
	}
	for _, r := range o.rels {
		if r.kind == 'i' && r.on == on && r != ix {
			return 0, 0
		}
	}
	return on.t.stat.idxScan.Load(), on.t.stat.idxFetch.Load()
}

func pgStatIndexes(user, sys bool) func(o *catalogObjects, r *catRows) {
	return func(o *catalogObjects, r *catRows) {
		statIndexes(o, user, sys, func(ix, on *catRel) {
			scans, rows := indexCounts(o, ix, on)
			r.add("relid", on.oid, "indexrelid", ix.oid, "schemaname", on.schema, "relname", on.name, "indexrelname", ix.name,
				"idx_scan", scans, "idx_tup_read", rows, "idx_tup_fetch", rows)
		})
	}
}

func pgStatioIndexes(user, sys bool) func(o *catalogObjects, r *catRows) {
	return func(o *catalogObjects, r *catRows) {
		statIndexes(o, user, sys, func(ix, on *catRel) {
			r.add("relid", on.oid, "indexrelid", ix.oid, "schemaname", on.schema, "relname", on.name, "indexrelname", ix.name,
				"idx_blks_read", 0, "idx_blks_hit", 0)
		})
	}
}

func pgStatioSequences(user, sys bool) func(o *catalogObjects, r *catRows) {
	return func(o *catalogObjects, r *catRows) {
		for _, rel := range o.rels {
			if rel.kind == 'S' && (rel.key != "" && user || rel.key == "" && sys) {
				r.add("relid", rel.oid, "schemaname", rel.schema, "relname", rel.name, "blks_read", 0, "blks_hit", 0)
			}
		}
	}
}

// pgStatXactTables lists the tables as pg_stat_xact_*_tables does: the
// counts of the transaction running, which the engine does not keep
// apart from the totals; 0, as in a transaction that has read nothing.
func pgStatXactTables(user, sys bool) func(o *catalogObjects, r *catRows) {
	return func(o *catalogObjects, r *catRows) {
		statTables(o, user, sys, func(rel *catRel) {
			r.add("relid", rel.oid, "schemaname", rel.schema, "relname", rel.name, "seq_scan", 0, "seq_tup_read", 0,
				"idx_scan", statIdx(o, rel), "idx_tup_fetch", statIdx(o, rel), "n_tup_ins", 0, "n_tup_upd", 0, "n_tup_del", 0,
				"n_tup_hot_upd", 0)
		})
	}
}

// statsReset is the time the server's counters start from.
func statsReset() value.Value {
	return value.NewTimestamp(value.TimestampTZ, expr.ServerStart().UnixMicro()-pgEpochMicros)
}

// numericZero is a numeric 0.
func numericZero() value.Value {
	v, _ := value.Parse("0", value.Type{Kind: value.Numeric, Mod: -1})
	return v
}

// slruNames are the SLRU caches pg_stat_slru lists, in its order.
var slruNames = []string{"CommitTs", "MultiXactMember", "MultiXactOffset", "Notify", "Serial", "Subtrans", "Xact", "other"}

func init() {
	index := "relid:oid,indexrelid:oid,schemaname:name,relname:name,indexrelname:name,idx_scan:bigint,idx_tup_read:bigint,idx_tup_fetch:bigint"
	statioIndex := "relid:oid,indexrelid:oid,schemaname:name,relname:name,indexrelname:name,idx_blks_read:bigint,idx_blks_hit:bigint"
	statioSeq := "relid:oid,schemaname:name,relname:name,blks_read:bigint,blks_hit:bigint"
	xact := "relid:oid,schemaname:name,relname:name,seq_scan:bigint,seq_tup_read:bigint,idx_scan:bigint,idx_tup_fetch:bigint," +
		"n_tup_ins:bigint,n_tup_upd:bigint,n_tup_del:bigint,n_tup_hot_upd:bigint"
	funcs := "funcid:oid,schemaname:name,funcname:name,calls:bigint,total_time:double precision,self_time:double precision"
	add := addCatalogRelation
	add("pg_catalog.pg_stat_all_indexes", index, pgStatIndexes(true, true))
	add("pg_catalog.pg_stat_user_indexes", index, pgStatIndexes(true, false))
	add("pg_catalog.pg_stat_sys_indexes", index, pgStatIndexes(false, true))
	add("pg_catalog.pg_statio_all_indexes", statioIndex, pgStatioIndexes(true, true))
	add("pg_catalog.pg_statio_user_indexes", statioIndex, pgStatioIndexes(true, false))
	add("pg_catalog.pg_statio_sys_indexes", statioIndex, pgStatioIndexes(false, true))
	add("pg_catalog.pg_statio_all_sequences", statioSeq, pgStatioSequences(true, true))
	add("pg_catalog.pg_statio_user_sequences", statioSeq, pgStatioSequences(true, false))
	add("pg_catalog.pg_statio_sys_sequences", statioSeq, pgStatioSequences(false, true))
	add("pg_catalog.pg_stat_xact_all_tables", xact, pgStatXactTables(true, true))
	add("pg_catalog.pg_stat_xact_user_tables", xact, pgStatXactTables(true, false))
	add("pg_catalog.pg_stat_xact_sys_tables", xact, pgStatXactTables(false, true))
	// Functions are counted only under track_functions, which is none.
	none := func(*catalogObjects, *catRows) {}
	add("pg_catalog.pg_stat_user_functions", funcs, none)
	add("pg_catalog.pg_stat_xact_user_functions", funcs, none)
	add("pg_catalog.pg_stat_subscription_stats", "subid:oid,subname:name,apply_error_count:bigint,sync_error_count:bigint,stats_reset:timestamp with time zone", none)
	add("pg_catalog.pg_stat_progress_copy", "pid:integer,datid:oid,datname:name,relid:oid,command:text,type:text,bytes_processed:bigint,bytes_total:bigint,tuples_processed:bigint,tuples_excluded:bigint", none)
	add("pg_catalog.pg_stat_progress_create_index", "pid:integer,datid:oid,datname:name,relid:oid,index_relid:oid,command:text,phase:text,lockers_total:bigint,lockers_done:bigint,current_locker_pid:bigint,blocks_total:bigint,blocks_done:bigint,tuples_total:bigint,tuples_done:bigint,partitions_total:bigint,partitions_done:bigint", none)

	add("pg_catalog.pg_stat_bgwriter", "checkpoints_timed:bigint,checkpoints_req:bigint,checkpoint_write_time:double precision,"+
		"checkpoint_sync_time:double precision,buffers_checkpoint:bigint,buffers_clean:bigint,maxwritten_clean:bigint,"+
		"buffers_backend:bigint,buffers_backend_fsync:bigint,buffers_alloc:bigint,stats_reset:timestamp with time zone",
		func(_ *catalogObjects, r *catRows) {
			r.add("checkpoints_timed", 0, "checkpoints_req", 0, "checkpoint_write_time", 0.0, "checkpoint_sync_time", 0.0,
				"buffers_checkpoint", 0, "buffers_clean", 0, "maxwritten_clean", 0, "buffers_backend", 0, "buffers_backend_fsync", 0,
				"buffers_alloc", 0, "stats_reset", statsReset())
		})
	add("pg_catalog.pg_stat_wal", "wal_records:bigint,wal_fpi:bigint,wal_bytes:numeric,wal_buffers_full:bigint,wal_write:bigint,"+
		"wal_sync:bigint,wal_write_time:double precision,wal_sync_time:double precision,stats_reset:timestamp with time zone",
		func(_ *catalogObjects, r *catRows) {
			r.add("wal_records", 0, "wal_fpi", 0, "wal_bytes", numericZero(), "wal_buffers_full", 0, "wal_write", 0,
				"wal_sync", 0, "wal_write_time", 0.0, "wal_sync_time", 0.0, "stats_reset", statsReset())
		})
	add("pg_catalog.pg_stat_archiver", "archived_count:bigint,last_archived_wal:text,last_archived_time:timestamp with time zone,"+
		"failed_count:bigint,last_failed_wal:text,last_failed_time:timestamp with time zone,stats_reset:timestamp with time zone",
		func(_ *catalogObjects, r *catRows) {
			r.add("archived_count", 0, "failed_count", 0, "stats_reset", statsReset())
		})
	add("pg_catalog.pg_stat_database_conflicts", "datid:oid,datname:name,confl_tablespace:bigint,confl_lock:bigint,"+
		"confl_snapshot:bigint,confl_bufferpin:bigint,confl_deadlock:bigint",
		func(_ *catalogObjects, r *catRows) {
			r.add("datid", objectOID("database", DatabaseName), "datname", DatabaseName, "confl_tablespace", 0, "confl_lock", 0,
				"confl_snapshot", 0, "confl_bufferpin", 0, "confl_deadlock", 0)
		})
	add("pg_catalog.pg_stat_slru", "name:text,blks_zeroed:bigint,blks_hit:bigint,blks_read:bigint,blks_written:bigint,"+
		"blks_exists:bigint,flushes:bigint,truncates:bigint,stats_reset:timestamp with time zone",
		func(_ *catalogObjects, r *catRows) {
			for _, n := range slruNames {
				r.add("name", n, "blks_zeroed", 0, "blks_hit", 0, "blks_read", 0, "blks_written", 0, "blks_exists", 0,
					"flushes", 0, "truncates", 0, "stats_reset", statsReset())
			}
		})
	add("pg_catalog.pg_stat_recovery_prefetch", "stats_reset:timestamp with time zone,prefetch:bigint,hit:bigint,skip_init:bigint,"+
		"skip_new:bigint,skip_fpw:bigint,skip_rep:bigint,wal_distance:integer,block_distance:integer,io_depth:integer",
		func(_ *catalogObjects, r *catRows) {
			r.add("stats_reset", statsReset(), "prefetch", 0, "hit", 0, "skip_init", 0, "skip_new", 0, "skip_fpw", 0, "skip_rep", 0,
				"wal_distance", 0, "block_distance", 0, "io_depth", 0)
		})
	// One row per session, as pg_stat_activity lists them: none uses SSL
	// or GSSAPI.
	add("pg_catalog.pg_stat_ssl", "pid:integer,ssl:boolean,version:text,cipher:text,bits:integer,client_dn:text,client_serial:numeric,issuer_dn:text",
		func(o *catalogObjects, r *catRows) {
			for _, a := range o.activity {
				r.add("pid", a.pid, "ssl", false)
			}
		})
	add("pg_catalog.pg_stat_gssapi", "pid:integer,gss_authenticated:boolean,principal:text,encrypted:boolean",
		func(o *catalogObjects, r *catRows) {
			for _, a := range o.activity {
				r.add("pid", a.pid, "gss_authenticated", false, "encrypted", false)
			}
		})
}
