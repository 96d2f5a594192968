package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// pg_settings_get_flags(name): the flags PostgreSQL 15 gives a setting
// (EXPLAIN, NO_RESET_ALL, …), for the settings a session has; NULL for a
// name no setting has, as in PostgreSQL. Stateless: the flags are
// PostgreSQL's, fixed per name; whether the name is a setting is the
// session's (Settings).

// settingFlags are the flags of the settings that have any, by name.
var settingFlags = func() map[string][]string {
	m := map[string][]string{}
	add := func(flags, names string) {
		fs := strings.Split(flags, ",")
		for _, n := range strings.Fields(names) {
			m[n] = fs
		}
	}
	add("EXPLAIN", `constraint_exclusion cpu_index_tuple_cost cpu_operator_cost cpu_tuple_cost
		cursor_tuple_fraction effective_cache_size effective_io_concurrency enable_async_append
		enable_bitmapscan enable_gathermerge enable_hashagg enable_hashjoin enable_incremental_sort
		enable_indexonlyscan enable_indexscan enable_material enable_memoize enable_mergejoin
		enable_nestloop enable_parallel_append enable_parallel_hash enable_partition_pruning
		enable_partitionwise_aggregate enable_partitionwise_join enable_seqscan enable_sort
		enable_tidscan from_collapse_limit geqo geqo_effort geqo_generations geqo_pool_size geqo_seed
		geqo_selection_bias geqo_threshold hash_mem_multiplier jit jit_above_cost
		jit_inline_above_cost jit_optimize_above_cost join_collapse_limit maintenance_io_concurrency
		max_parallel_workers max_parallel_workers_per_gather min_parallel_index_scan_size
		min_parallel_table_scan_size parallel_leader_participation parallel_setup_cost
		parallel_tuple_cost plan_cache_mode random_page_cost recursive_worktable_factor search_path
		seq_page_cost temp_buffers work_mem`)
	add("EXPLAIN,NOT_IN_SAMPLE", "force_parallel_mode")
	add("NOT_IN_SAMPLE", `allow_in_place_tablespaces allow_system_table_mods application_name
		backtrace_functions block_size debug_assertions debug_discard_caches ignore_checksum_failure
		ignore_invalid_pages ignore_system_indexes in_hot_standby integer_datetimes
		jit_debugging_support jit_dump_bitcode jit_expressions jit_profiling_support
		jit_tuple_deforming lc_collate lc_ctype max_function_args max_identifier_length
		max_index_keys post_auth_delay pre_auth_delay remove_temp_files_after_crash
		restrict_nonsystem_relation_kind segment_size server_encoding server_version
		server_version_num ssl_library trace_notify trace_recovery_messages trace_sort
		wal_block_size wal_consistency_checking zero_damaged_pages`)
	add("NOT_IN_SAMPLE,RUNTIME_COMPUTED", `data_checksums data_directory_mode shared_memory_size
		shared_memory_size_in_huge_pages wal_segment_size`)
	add("NO_RESET_ALL,NOT_IN_SAMPLE", "transaction_deferrable transaction_isolation transaction_read_only")
	add("NO_RESET_ALL,NO_SHOW_ALL,NOT_IN_SAMPLE", "is_superuser session_authorization role seed")
	return m
}()

func init() {
	register(&FuncDef{Name: "pg_settings_get_flags", Strict: true, Params: kinds(value.Text), Result: value.ArrayType(value.Text),
		Session: func(s Settings, a []value.Value) (value.Value, error) {
			name := strings.ToLower(textOf(a[0]))
			if _, ok, err := s.Setting(name, true); err != nil || !ok {
				return value.Null, err
			}
			fs := settingFlags[name]
			elems := make([]value.Value, len(fs))
			for i, f := range fs {
				elems[i] = text(f)
			}
			return value.NewArray(value.ArrayOf(value.Text), elems), nil
		}})
}
