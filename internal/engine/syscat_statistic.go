package engine

import "github.com/deltaview/deltaview/internal/value"

// The planner statistics catalogs keep no rows: ANALYZE gathers nothing
// (the engine plans by its indexes and row counts, not by sampled
// distributions), so pg_statistic, pg_stats and the extended statistics'
// data are empty, as on a PostgreSQL server whose tables were never
// analyzed. Each has PostgreSQL 15's columns; the types the engine has no
// values of (anyarray, pg_ndistinct, …) are text.
var statisticCatalogs = []struct {
	name string
	oid  uint32
	cols string
}{
	{"pg_statistic", 2619, "starelid:oid,staattnum:smallint,stainherit:boolean,stanullfrac:real,stawidth:integer,stadistinct:real," +
		"stakind1:smallint,stakind2:smallint,stakind3:smallint,stakind4:smallint,stakind5:smallint," +
		"staop1:oid,staop2:oid,staop3:oid,staop4:oid,staop5:oid,stacoll1:oid,stacoll2:oid,stacoll3:oid,stacoll4:oid,stacoll5:oid," +
		"stanumbers1:real[],stanumbers2:real[],stanumbers3:real[],stanumbers4:real[],stanumbers5:real[]," +
		"stavalues1:anyarray,stavalues2:anyarray,stavalues3:anyarray,stavalues4:anyarray,stavalues5:anyarray"},
	{"pg_statistic_ext_data", 3429, "stxoid:oid,stxdinherit:boolean,stxdndistinct:pg_ndistinct,stxddependencies:pg_dependencies," +
		"stxdmcv:pg_mcv_list,stxdexpr:pg_statistic[]"},
	{"pg_stats", 0, "schemaname:name,tablename:name,attname:name,inherited:boolean,null_frac:real,avg_width:integer,n_distinct:real," +
		"most_common_vals:anyarray,most_common_freqs:real[],histogram_bounds:anyarray,correlation:real,most_common_elems:anyarray," +
		"most_common_elem_freqs:real[],elem_count_histogram:real[]"},
	{"pg_stats_ext", 0, "schemaname:name,tablename:name,statistics_schemaname:name,statistics_name:name,statistics_owner:name," +
		"attnames:name[],exprs:text[],kinds:\"char\"[],inherited:boolean,n_distinct:pg_ndistinct,dependencies:pg_dependencies," +
		"most_common_vals:text[],most_common_val_nulls:boolean[],most_common_freqs:double precision[],most_common_base_freqs:double precision[]"},
	{"pg_stats_ext_exprs", 0, "schemaname:name,tablename:name,statistics_schemaname:name,statistics_name:name,statistics_owner:name," +
		"expr:text,inherited:boolean,null_frac:real,avg_width:integer,n_distinct:real,most_common_vals:anyarray,most_common_freqs:real[]," +
		"histogram_bounds:anyarray,correlation:real,most_common_elems:anyarray,most_common_elem_freqs:real[],elem_count_histogram:real[]"},
}

func init() {
	for _, n := range []string{"pg_ndistinct", "pg_dependencies", "pg_mcv_list", "pg_statistic[]"} {
		catalogTypeNames[n] = value.TextType
	}
	empty := func(*catalogObjects, *catRows) {}
	for _, c := range statisticCatalogs {
		name := "pg_catalog." + c.name
		rows := empty
		if c.name == "pg_stats_ext_exprs" {
			rows = pgStatsExtExprs
		}
		catalogColumns[name], catalogRowFuncs[name] = c.cols, rows
		catalogRelations[name] = catalogRelation{cols: catalogCols(c.cols), rows: rows}
		if c.oid != 0 {
			catalogRelOIDs[c.name] = c.oid
		}
	}
}

// pgStatsExtExprs lists each expression of the statistics objects, with
// no statistics gathered: PostgreSQL's view joins them to the data
// ANALYZE would gather (none here) with an outer join.
func pgStatsExtExprs(o *catalogObjects, r *catRows) {
	_, _, exprs := o.e.statsTexts(nil)
	for _, st := range o.stats {
		schema, table := o.e.splitKey(st.table)
		stSchema, stName := o.e.splitKey(st.name)
		for _, x := range exprs[objectOID("statistic_ext", st.name)] {
			r.add("schemaname", schema, "tablename", table, "statistics_schemaname", stSchema, "statistics_name", stName,
				"statistics_owner", st.ownerName(), "expr", x)
		}
	}
}
