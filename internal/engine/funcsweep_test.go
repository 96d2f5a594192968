package engine_test

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

var (
	sweepRewrite = flag.Bool("sweep-rewrite", false, "rewrite testdata/funcsweep/signatures from TestFunctionSweep's findings")
	sweepShow    = flag.Bool("sweep-show", false, "log every call of TestFunctionSweep that is not the same")
	sweepDoc     = flag.Bool("sweep-doc", false, "print the table of docs/sql.md written from testdata/funcsweep/signatures")
)

// sweepFile lists every signature TestFunctionSweep calls with its status;
// it is not a datadriven file.
const sweepFile = "testdata/funcsweep/signatures"

// TestFunctionSweep reads PostgreSQL's catalog (pg_proc: functions,
// aggregates and window functions; pg_operator) for the signatures over
// the supported types, calls each with a few sample arguments in
// PostgreSQL and in the engine ad hoc, and classifies it:
//
//	same                 every call gives the same rows, or the same SQLSTATE
//	error                PostgreSQL fails on every sample, and so does the engine
//	missing CODE         PostgreSQL fails on every sample, the engine does not know the call (CODE)
//	refused CODE         PostgreSQL answers a call that the engine fails with CODE
//	different …          both answer and the rows differ, or one answers and the other fails, or the SQLSTATEs differ
//
// The expected status of every signature is the committed list in
// testdata/funcsweep/signatures: the test fails when a status changes, a
// gap found or fixed alike, so the list stays true. -sweep-rewrite writes
// the list afresh (read its diff).
func TestFunctionSweep(t *testing.T) {
	pg, ctx, _ := randomPG(t, 41)
	if _, err := pg.Exec(ctx, "SET statement_timeout = '5s'"); err != nil {
		t.Fatal(err)
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	sigs := sweepSignatures(t, runPG)
	if len(sigs) < 500 {
		t.Fatalf("only %d signatures read from the catalog", len(sigs))
	}
	got := map[string]string{}
	counts := map[string]int{}
	for _, s := range sigs {
		st := s.classify(t, run, runPG)
		got[s.key] = st
		counts[strings.Fields(st)[0]]++
	}
	t.Logf("%d signatures: %d same, %d different, %d refused, %d missing, %d error (both fail on the samples)",
		len(sigs), counts["same"], counts["different"], counts["refused"], counts["missing"], counts["error"])
	if *sweepRewrite {
		writeSweep(t, got, counts)
		return
	}
	want := readSweep(t)
	if *sweepDoc {
		fmt.Print(sweepTable(want))
	}
	var diffs []string
	for k, st := range got {
		if w, ok := want[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("new signature %s: %s", k, st))
		} else if w != st {
			diffs = append(diffs, fmt.Sprintf("%s: listed %q, now %q", k, w, st))
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("listed signature %s not in the catalog", k))
		}
	}
	sort.Strings(diffs)
	for _, d := range diffs {
		t.Error(d)
	}
	if len(diffs) > 0 {
		t.Logf("update %s with -sweep-rewrite once the changes are right (-sweep-show logs the calls)", sweepFile)
	}
}

// sweepSig is one signature of the catalog and the calls that exercise it.
type sweepSig struct {
	key   string   // "func abs(integer)", "op integer + integer"
	calls []string // SELECT statements
	// values false: compare only whether the calls succeed and their
	// row counts (volatile functions and those reading the clock).
	values bool
	// zoned: an argument or the result holds a date, a time, a
	// timestamp or an interval (alone, in an array or a range), so
	// that the session's TimeZone, DateStyle or IntervalStyle may
	// change it.
	zoned bool
}

// sweepZoned reports whether one of the catalog's type names holds a
// date, a time, a timestamp or an interval.
func sweepZoned(types ...string) bool {
	for _, t := range types {
		for _, k := range []string{"date", "time", "interval", "tsrange", "tstz", "tsmulti"} {
			if strings.Contains(t, k) {
				return true
			}
		}
	}
	return false
}

// sweepTypes are the catalog's names of the supported types, with sample
// literals (three each, the calls take the i-th of each argument's).
var sweepTypes = map[string][]string{
	"boolean":                     {"true", "false", "true"},
	"smallint":                    {"2", "-3", "7"},
	"integer":                     {"2", "-3", "7"},
	"bigint":                      {"2", "-3", "7"},
	"numeric":                     {"2.5", "-1.25", "10"},
	"real":                        {"0.5", "-2", "3.25"},
	"double precision":            {"0.5", "-2", "3.25"},
	"text":                        {"'abc'", "'day'", "'Hello, World'"},
	"character varying":           {"'abc'", "'day'", "'Hello, World'"},
	"character":                   {"'a'", "'d'", "'H'"},
	"date":                        {"'2024-03-15'", "'2000-02-29'", "'1999-12-31'"},
	"timestamp without time zone": {"'2024-03-15 10:30:00'", "'2000-02-29 23:59:59.5'", "'1999-12-31 00:00:00'"},
	"timestamp with time zone":    {"'2024-03-15 10:30:00+00'", "'2000-02-29 23:59:59.5+02'", "'1999-12-31 00:00:00-05'"},
	"interval":                    {"'1 day 02:00:00'", "'3 mons'", "'-00:30:00'"},
	"time without time zone":      {"'10:30:00'", "'23:59:59.5'", "'00:00:00'"},
	"time with time zone":         {"'10:30:00+02'", "'23:59:59.5-05'", "'00:00:00+00'"},
	"json":                        {`'{"a": 1, "b": [1, 2]}'`, `'[1, "x", null]'`, `'"s"'`},
	"jsonb":                       {`'{"a": 1, "b": [1, 2]}'`, `'[1, "x", null]'`, `'"s"'`},
	"jsonpath":                    {"'$.a'", "'$[*]'", "'$.b[0]'"},
	"bytea":                       {`'\x0102ff'`, `'\x616263'`, `'\x'`},
	"bit":                         {"'1'", "'0'", "'1'"},
	"bit varying":                 {"'1011'", "'01'", "'111000'"},
	"uuid":                        {"'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", "'00000000-0000-0000-0000-000000000001'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'"},
	"tsvector":                    {"'fat:2,4A cat:3 rat:5B'", "'a b c'", "'day:1 abc:2'"},
	"tsquery":                     {"'fat & rat'", "'a <-> !b | c:*'", "'abc'"},
	"int4range":                   {"'[1,5)'", "'(,3]'", "'[3,9]'"},
	"int8range":                   {"'[1,5)'", "'(,3]'", "'[3,9]'"},
	"numrange":                    {"'[1.5,2.5]'", "'(0,)'", "'[-1,1.5)'"},
	"daterange":                   {"'[2024-03-01,2024-04-01)'", "'(,2000-02-29]'", "'[2000-01-01,infinity]'"},
	"tsrange":                     {"'[2024-03-15 10:30,2024-03-16)'", "'(,2000-02-29 23:59:59.5]'", "'[2000-01-01,)'"},
	"tstzrange":                   {"'[2024-03-15 10:30+00,2024-03-16+00)'", "'(,2000-02-29 23:59:59.5+02]'", "'empty'"},
	"int4multirange":              {"'{[1,5),[7,9]}'", "'{(,3]}'", "'{}'"},
	"int8multirange":              {"'{[1,5),[7,9]}'", "'{(,3]}'", "'{}'"},
	"nummultirange":               {"'{[1.5,2.5]}'", "'{(,0),[1,2)}'", "'{[-1,1.5)}'"},
	"datemultirange":              {"'{[2024-03-01,2024-04-01)}'", "'{(,2000-02-29],[2001-01-01,)}'", "'{}'"},
	"tsmultirange":                {"'{[2024-03-15 10:30,2024-03-16)}'", "'{(,2000-02-29 23:59:59.5]}'", "'{[2000-01-01,)}'"},
	"tstzmultirange":              {"'{[2024-03-15 10:30+00,2024-03-16+00)}'", "'{(,2000-02-29 23:59:59.5+02]}'", "'{}'"},
	"inet":                        {"'192.168.1.5/24'", "'10.0.0.1'", "'2001:db8::7/64'"},
	"cidr":                        {"'192.168.1.0/24'", "'10.0.0.0/8'", "'2001:db8::/32'"},
	"macaddr":                     {"'08:00:2b:01:02:03'", "'ff:ff:ff:00:00:01'", "'00:00:00:00:00:00'"},
	"macaddr8":                    {"'08:00:2b:01:02:03:04:05'", "'02:34:56:ff:fe:ab:cd:ef'", "'00:00:00:00:00:00:00:00'"},
	"money":                       {"'$1,234.56'", "'-0.07'", "'-92233720368547758.08'"},
	"point":                       {"'(1,2)'", "'(-3,0.5)'", "'(0,0)'"},
	"lseg":                        {"'[(0,0),(2,2)]'", "'[(1,-1),(3,5)]'", "'[(-2,0),(2,0)]'"},
	"box":                         {"'(2,2),(0,0)'", "'(3,5),(1,-1)'", "'(1,1),(-1,-1)'"},
	"path":                        {"'[(0,0),(2,2),(4,0)]'", "'((1,-1),(3,5),(0,2))'", "'[(-2,0),(2,0)]'"},
	"polygon":                     {"'((0,0),(2,2),(4,0))'", "'((1,-1),(3,5),(0,2))'", "'((-1,-1),(-1,1),(1,1),(1,-1))'"},
	"line":                        {"'{1,-1,0}'", "'{0,1,-2}'", "'{2,3,-6}'"},
	"circle":                      {"'<(0,0),2>'", "'<(1,2),0.5>'", "'<(-3,1),4>'"},
	"xml":                         {"'<a n=\"1\">x</a>'", "'text <b/>'", "'<?xml version=\"1.1\"?><r/>'"},
}

// sweepSkip are functions over the supported types that are about the
// server, the session or its privileges rather than values: the engine
// has none of their objects.
var sweepSkip = map[string]bool{
	"current_setting": true, "set_config": true, "has_any_column_privilege": true,
	"has_column_privilege": true, "has_database_privilege": true, "has_foreign_data_wrapper_privilege": true,
	"has_function_privilege": true, "has_language_privilege": true, "has_schema_privilege": true,
	"has_sequence_privilege": true, "has_server_privilege": true, "has_table_privilege": true,
	"has_tablespace_privilege": true, "has_type_privilege": true, "has_parameter_privilege": true,
	"nextval": true, "currval": true, "setval": true, "lastval": true, "version": true,
	"current_database": true, "current_query": true, "current_schema": true, "current_schemas": true,
	"current_user": true, "session_user": true, "current_role": true, "user": true,
	"inet_client_port": true, "inet_server_port": true, "inet_client_addr": true, "inet_server_addr": true, "txid_current": true, "txid_current_if_assigned": true,
	"txid_snapshot_xip": true, "txid_status": true, "txid_visible_in_snapshot": true, "txid_current_snapshot": true,
	"to_regclass": true, "to_regproc": true, "to_regprocedure": true,
	"to_regoper": true, "to_regoperator": true, "to_regtype": true, "to_regrole": true,
	"to_regnamespace": true, "to_regcollation": true, "obj_description": true, "shobj_description": true,
	"col_description": true, "format_type": true, "binary_upgrade_set_next_pg_type_oid": true,
	"lo_create": true, "lo_import": true, "lo_export": true, "lo_unlink": true, "lo_open": true,
	"lo_get": true, "lo_put": true, "lo_from_bytea": true, "lo_truncate": true, "lo_truncate64": true,
	"loread": true, "lowrite": true, "lo_close": true, "lo_tell": true, "lo_tell64": true,
	"lo_lseek": true, "lo_lseek64": true, "lo_creat": true,
	"satisfies_hash_partition": true, "brin_summarize_new_values": true, "brin_summarize_range": true,
	"brin_desummarize_range": true, "gin_clean_pending_list": true, "parse_ident_internal": true,
	"row_security_active": true, "unique_key_recheck": true, "nameconcatoid": true,
	"getdatabaseencoding": true, "convert": true, "convert_from": true, "convert_to": true,
	"make_aclitem": true, "query_to_xml": true, "cursor_to_xml": true,
	"table_to_xml": true, "schema_to_xml": true, "database_to_xml": true,
	"query_to_xmlschema": true, "cursor_to_xmlschema": true, "table_to_xmlschema": true,
	"query_to_xml_and_xmlschema": true, "table_to_xml_and_xmlschema": true,
	"database_to_xmlschema": true, "database_to_xml_and_xmlschema": true,
	"bthandler": true, "heap_tableam_handler": true, "ts_debug": true, "ts_stat": true,
	"dblink": true, "tsvector_update_trigger": true, "suppress_redundant_updates_trigger": true,
	"RI_FKey_check_ins": true, "binary_upgrade_create_empty_extension": true,
	"amvalidate": true, "regclass": true, "text_pattern_ops": true,
}

// sweepArgs replace the samples of some arguments (by position) of some
// signatures, whose every sample would fail: fields, formats, flags.
var sweepArgs = map[string]map[int][]string{
	`"extract"(text,date)`:                           {0: sweepFields},
	`"extract"(text,interval)`:                       {0: sweepFields},
	`"extract"(text,time with time zone)`:            {0: sweepFields},
	`"extract"(text,time without time zone)`:         {0: sweepFields},
	`"extract"(text,timestamp with time zone)`:       {0: sweepFields},
	`"extract"(text,timestamp without time zone)`:    {0: sweepFields},
	`date_part(text,time with time zone)`:            {0: sweepFields},
	`date_part(text,time without time zone)`:         {0: sweepFields},
	`date_trunc(text,timestamp with time zone,text)`: {0: sweepFields, 2: sweepZones},
	`"normalize"(text,text)`:                         {1: {"'NFC'", "'NFD'", "'NFKC'"}},
	`is_normalized(text,text)`:                       {1: {"'NFC'", "'NFD'", "'NFKC'"}},
	`decode(text,text)`:                              {0: {"'616263'", "'YWJj'", `'a\\b'`}, 1: {"'hex'", "'base64'", "'escape'"}},
	`encode(bytea,text)`:                             {1: {"'hex'", "'base64'", "'escape'"}},
	`get_bit(bit,integer)`:                           {1: {"0", "0", "1"}},
	`set_bit(bit,integer,integer)`:                   {1: {"0", "0", "1"}, 2: {"1", "0", "1"}},
	`get_byte(bytea,integer)`:                        {1: {"0", "2", "0"}},
	`set_bit(bytea,bigint,integer)`:                  {1: {"0", "9", "0"}, 2: {"1", "0", "1"}},
	`set_byte(bytea,integer,integer)`:                {1: {"0", "2", "0"}, 2: {"65", "0", "255"}},
	`make_time(integer,integer,double precision)`:    {0: {"10", "23", "0"}, 1: {"30", "59", "0"}, 2: {"0.5", "59.5", "0"}},
	`make_timestamp(integer,integer,integer,integer,integer,double precision)`: {0: {"2024", "2000", "1999"}, 1: {"3", "2", "12"},
		2: {"15", "29", "31"}, 3: {"10", "23", "0"}, 4: {"30", "59", "0"}, 5: {"0.5", "59.5", "0"}},
	`make_timestamptz(integer,integer,integer,integer,integer,double precision)`: {0: {"2024", "2000", "1999"}, 1: {"3", "2", "12"},
		2: {"15", "29", "31"}, 3: {"10", "23", "0"}, 4: {"30", "59", "0"}, 5: {"0.5", "59.5", "0"}},
	`make_timestamptz(integer,integer,integer,integer,integer,double precision,text)`: {0: {"2024", "2000", "1999"}, 1: {"3", "2", "12"},
		2: {"15", "29", "31"}, 3: {"10", "23", "0"}, 4: {"30", "59", "0"}, 5: {"0.5", "59.5", "0"}, 6: sweepZones},
	`percentile_cont(double precision[],double precision)`: {0: {"'{0.25,0.5}'", "'{1,0}'", "'{0.1}'"}},
	`percentile_cont(double precision[],interval)`:         {0: {"'{0.25,0.5}'", "'{1,0}'", "'{0.1}'"}},
	`percentile_disc(double precision[],anyelement)`:       {0: {"'{0.25,0.5}'", "'{1,0}'", "'{0.1}'"}},
	`percentile_cont(double precision,double precision)`:   {0: {"0.25", "1", "0"}},
	`percentile_cont(double precision,interval)`:           {0: {"0.25", "1", "0"}},
	`percentile_disc(double precision,anyelement)`:         {0: {"0.25", "1", "0"}},
	`regexp_count(text,text,integer,text)`:                 {2: {"1", "2", "1"}, 3: sweepFlags},
	`regexp_instr(text,text,integer,integer,integer)`:      {2: {"1", "2", "1"}, 3: {"1", "2", "1"}, 4: {"0", "1", "0"}},
	`regexp_instr(text,text,integer,integer,integer,text)`: {2: {"1", "2", "1"}, 3: {"1", "2", "1"}, 4: {"0", "1", "0"}, 5: sweepFlags},
	`regexp_instr(text,text,integer,integer,integer,text,integer)`: {2: {"1", "2", "1"}, 3: {"1", "2", "1"}, 4: {"0", "1", "0"},
		5: sweepFlags, 6: {"0", "1", "0"}},
	`regexp_like(text,text,text)`:                                           {2: sweepFlags},
	`regexp_match(text,text,text)`:                                          {2: sweepFlags},
	`regexp_matches(text,text,text)`:                                        {2: {"'g'", "'gi'", "''"}},
	`regexp_replace(text,text,text,integer,integer,text)`:                   {3: {"1", "2", "1"}, 4: {"0", "1", "2"}, 5: sweepFlags},
	`regexp_replace(text,text,text,text)`:                                   {3: {"'g'", "'gi'", "''"}},
	`regexp_split_to_array(text,text,text)`:                                 {2: sweepFlags},
	`regexp_split_to_table(text,text,text)`:                                 {2: sweepFlags},
	`regexp_substr(text,text,integer,integer,text)`:                         {2: {"1", "2", "1"}, 3: {"1", "2", "1"}, 4: sweepFlags},
	`regexp_substr(text,text,integer,integer,text,integer)`:                 {2: {"1", "2", "1"}, 3: {"1", "2", "1"}, 4: sweepFlags, 5: {"0", "1", "0"}},
	`timezone(text,time with time zone)`:                                    {0: sweepZones},
	`timezone(text,timestamp with time zone)`:                               {0: sweepZones},
	`timezone(text,timestamp without time zone)`:                            {0: sweepZones},
	`to_ascii(text,integer)`:                                                {1: {"8", "9", "29"}},
	`to_char(interval,text)`:                                                {1: {"'HH24:MI:SS'", "'DD \"days\" HH'", "'YYYY-MM'"}},
	`to_number(text,text)`:                                                  {0: {"'12.5'", "'-3'", "'1,234'"}, 1: {"'99D9'", "'S9'", "'9,999'"}},
	`"substring"(text,text,text)`:                                           {1: {"'%#\"b_#\"%'", "'a%'", "'%#\"o, W#\"%'"}, 2: {"'#'", "'#'", "'#'"}},
	`like_escape(text,text)`:                                                {1: {"'#'", "'!'", "''"}},
	`similar_escape(text,text)`:                                             {1: {"'#'", "'!'", "''"}},
	`similar_to_escape(text,text)`:                                          {1: {"'#'", "'!'", "''"}},
	`to_char(bigint,text)`:                                                  {1: sweepNumFormats},
	`to_char(integer,text)`:                                                 {1: sweepNumFormats},
	`to_char(numeric,text)`:                                                 {1: sweepNumFormats},
	`to_char(real,text)`:                                                    {1: sweepNumFormats},
	`to_char(double precision,text)`:                                        {1: sweepNumFormats},
	`to_char(timestamp without time zone,text)`:                             {1: sweepDateFormats},
	`to_char(timestamp with time zone,text)`:                                {1: sweepDateFormats},
	`ts_headline(text,tsquery,text)`:                                        {2: sweepHeadlineOptions},
	`ts_headline(json,tsquery,text)`:                                        {2: sweepHeadlineOptions},
	`ts_headline(jsonb,tsquery,text)`:                                       {2: sweepHeadlineOptions},
	`int4range(integer,integer,text)`:                                       {2: sweepRangeFlags},
	`int8range(bigint,bigint,text)`:                                         {2: sweepRangeFlags},
	`numrange(numeric,numeric,text)`:                                        {2: sweepRangeFlags},
	`daterange(date,date,text)`:                                             {2: sweepRangeFlags},
	`tsrange(timestamp without time zone,timestamp without time zone,text)`: {2: sweepRangeFlags},
	`tstzrange(timestamp with time zone,timestamp with time zone,text)`:     {2: sweepRangeFlags},
	`ts_rewrite(tsquery,text)`:                                              {1: {`'SELECT ''a''::tsquery, ''b | c''::tsquery'`, `'SELECT NULL::tsquery, ''x''::tsquery'`, `'SELECT to_tsquery(''a''), to_tsquery(''b'')'`}},
}

var (
	sweepFields          = []string{"'year'", "'epoch'", "'hour'"}
	sweepZones           = []string{"'UTC'", "'Europe/Paris'", "'+02'"}
	sweepFlags           = []string{"'i'", "''", "'x'"}
	sweepNumFormats      = []string{"'S999D99'", "'FM9,990.00'", "'abc'"}
	sweepRangeFlags      = []string{"'[]'", "'()'", "'(]'"}
	sweepDateFormats     = []string{"'YYYY-MM-DD HH24:MI:SS'", "'Dy, DD Mon YYYY'", "'IYYY-IW-ID'"}
	sweepHeadlineOptions = []string{"'MaxWords=3, MinWords=1'", "'StartSel=<, StopSel=>, HighlightAll=1'", "'MaxFragments=2, MaxWords=4, MinWords=1, ShortWord=0'"}
)

// sweepOrdered are the aggregates whose result depends on the order of
// their input: they are called with ORDER BY their argument, as their
// order is otherwise unspecified.
var sweepOrdered = map[string]bool{
	"array_agg": true, "string_agg": true, "json_agg": true, "jsonb_agg": true,
	"json_object_agg": true, "jsonb_object_agg": true,
}

// sweepClock are functions whose values depend on when they run.
var sweepClock = map[string]bool{
	"now": true, "transaction_timestamp": true, "statement_timestamp": true, "clock_timestamp": true,
	"timeofday": true, "random": true, "gen_random_uuid": true, "setseed": true,
}

// sweepSignatures reads the catalog of pg and builds the calls of each
// signature.
func sweepSignatures(t *testing.T, runPG func(string) ([]string, string)) []*sweepSig {
	t.Helper()
	funcs, code := runPG(`
SELECT p.oid::regprocedure::text, p.proname, p.prokind, p.proretset, p.provolatile,
       format_type(p.provariadic, NULL), format_type(p.prorettype, NULL),
       coalesce(a.aggkind, ''), coalesce(a.aggnumdirectargs, 0),
       array_to_string(ARRAY(SELECT format_type(x, NULL) FROM unnest(p.proargtypes) WITH ORDINALITY AS u(x, n) ORDER BY n), ';')
FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
WHERE p.pronamespace = 'pg_catalog'::regnamespace
  AND p.proname !~ '^(pg_|_)' AND p.prokind IN ('f', 'a', 'w')
  AND p.proname !~ '(recv|send|_in|_out|handler|_support)$'
  AND NOT EXISTS (SELECT FROM pg_type y WHERE p.oid IN (y.typinput, y.typoutput, y.typreceive, y.typsend, y.typmodin, y.typmodout, y.typanalyze, y.typsubscript))
  AND NOT EXISTS (SELECT FROM pg_operator o WHERE p.oid IN (o.oprcode, o.oprrest, o.oprjoin))
  AND NOT EXISTS (SELECT FROM pg_amproc m WHERE m.amproc = p.oid)
  AND NOT EXISTS (SELECT FROM pg_aggregate g WHERE p.oid IN (g.aggtransfn, g.aggfinalfn, g.aggcombinefn, g.aggserialfn, g.aggdeserialfn, g.aggmtransfn, g.aggminvtransfn, g.aggmfinalfn))
  AND NOT EXISTS (SELECT FROM pg_cast c WHERE c.castfunc = p.oid)
  AND NOT EXISTS (SELECT FROM pg_proc s WHERE s.prosupport = p.oid)
ORDER BY 1`)
	if code != "" {
		t.Fatalf("reading pg_proc: %s", code)
	}
	var sigs []*sweepSig
	for _, row := range funcs {
		f := strings.Split(row, "\x00|")
		sig, name, kind, retset, volatile, variadic, ret, aggkind, direct, argList :=
			f[0], f[1], f[2], f[3] == "t", f[4], f[5], f[6], f[7], f[8], f[9]
		if sweepSkip[name] || !sweepSupported(ret, true) {
			continue
		}
		var args []string
		if argList != "" && argList != "\x00NULL" {
			args = strings.Split(argList, ";")
		}
		ok := true
		for _, a := range args {
			ok = ok && sweepSupported(a, false)
		}
		if !ok {
			continue
		}
		s := &sweepSig{key: map[string]string{"f": "func ", "a": "agg ", "w": "window "}[kind] + sig, values: volatile != "v" && !sweepClock[name] && !(name == "age" && len(args) == 1),
			zoned: sweepZoned(append([]string{ret}, args...)...)}
		for _, inst := range sweepInstances(args) {
			for i := range 3 {
				c := sweepCall(name, strings.HasPrefix(sig, `"`), kind, retset, variadic != "-", aggkind, direct, inst, i, sweepArgs[sig])
				s.calls = append(s.calls, c)
			}
		}
		sigs = append(sigs, s)
	}
	ops, code := runPG(`
SELECT o.oprname, format_type(o.oprleft, NULL), format_type(o.oprright, NULL), format_type(o.oprresult, NULL), p.provolatile
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE o.oprnamespace = 'pg_catalog'::regnamespace
ORDER BY 1, 2, 3`)
	if code != "" {
		t.Fatalf("reading pg_operator: %s", code)
	}
	for _, row := range ops {
		f := strings.Split(row, "\x00|")
		name, left, right, ret, volatile := f[0], f[1], f[2], f[3], f[4]
		if !sweepSupported(ret, true) || !sweepSupported(right, false) || (left != "-" && !sweepSupported(left, false)) {
			continue
		}
		s := &sweepSig{values: volatile != "v", zoned: sweepZoned(left, right, ret)}
		var args []string
		if left == "-" {
			s.key = "op " + name + " " + right
			args = []string{right}
		} else {
			s.key = "op " + left + " " + name + " " + right
			args = []string{left, right}
		}
		for _, inst := range sweepInstances(args) {
			for i := range 3 {
				a := make([]string, len(inst))
				for j, typ := range inst {
					a[j] = sweepValue(typ, i+j)
				}
				if len(a) == 1 {
					s.calls = append(s.calls, "SELECT "+name+" "+a[0])
				} else {
					s.calls = append(s.calls, "SELECT "+a[0]+" "+name+" "+a[1])
				}
			}
		}
		sigs = append(sigs, s)
	}
	return sigs
}

// sweepPoly are the polymorphic pseudo-types, each instantiated as
// integer and then as text.
var sweepPoly = map[string][2]string{
	"anyelement":            {"integer", "text"},
	"anynonarray":           {"integer", "text"},
	"anycompatible":         {"integer", "text"},
	"anycompatiblenonarray": {"integer", "text"},
	"anyarray":              {"integer[]", "text[]"},
	"anycompatiblearray":    {"integer[]", "text[]"},
	`"any"`:                 {"integer", "text"},
	"anyrange":              {"int4range", "numrange"},
	"anymultirange":         {"int4multirange", "nummultirange"},
}

func sweepSupported(typ string, result bool) bool {
	if _, ok := sweepPoly[typ]; ok {
		return true
	}
	if result && (typ == "void" || typ == "record") {
		return true
	}
	if el, ok := strings.CutSuffix(typ, "[]"); ok {
		typ = el
	}
	_, ok := sweepTypes[typ]
	return ok
}

// sweepInstances returns the argument types of each instantiation of a
// polymorphic signature (the signature itself when it is not).
func sweepInstances(args []string) [][]string {
	poly := false
	for _, a := range args {
		_, ok := sweepPoly[a]
		poly = poly || ok
	}
	if !poly {
		return [][]string{args}
	}
	var out [][]string
	for k := range 2 {
		inst := make([]string, len(args))
		for i, a := range args {
			if p, ok := sweepPoly[a]; ok {
				inst[i] = p[k]
				if a == `"any"` && i%2 == 1 {
					inst[i] = p[1-k]
				}
			} else {
				inst[i] = a
			}
		}
		out = append(out, inst)
	}
	return out
}

// sweepValue is the i-th sample of typ, as a typed literal.
func sweepValue(typ string, i int) string {
	if el, ok := strings.CutSuffix(typ, "[]"); ok {
		return "ARRAY[" + sweepValue(el, i) + ", " + sweepValue(el, i+1) + "]"
	}
	vs := sweepTypes[typ]
	return "CAST(" + vs[i%len(vs)] + " AS " + typ + ")"
}

// sweepCall writes the i-th call of a function with argument types args.
func sweepCall(name string, quoted bool, kind string, retset, variadic bool, aggkind, direct string, args []string, i int, over map[int][]string) string {
	if variadic && len(args) > 0 {
		// A variadic array is passed as two elements, "any" as two
		// values of other types.
		last := args[len(args)-1]
		if el, ok := strings.CutSuffix(last, "[]"); ok {
			args = append(slices.Clone(args[:len(args)-1]), el, el)
		} else if last == "integer" || last == "text" {
			args = append(slices.Clone(args), map[string]string{"integer": "text", "text": "integer"}[last])
		}
	}
	vals := make([]string, len(args))
	for j, a := range args {
		vals[j] = sweepValue(a, i+j)
		if o, ok := over[j]; ok {
			vals[j] = "CAST(" + o[i%len(o)] + " AS " + a + ")"
		}
	}
	qname := name
	if quoted {
		qname = `"` + name + `"`
	}
	switch kind {
	case "a":
		if aggkind == "h" {
			// Hypothetical-set: the direct arguments are a row of
			// the ordered ones' types.
			cols := make([]string, len(vals))
			for j := range cols {
				cols[j] = fmt.Sprintf("x%d", j)
			}
			return "SELECT " + qname + "(" + strings.Join(vals, ", ") + ") WITHIN GROUP (ORDER BY " + strings.Join(cols, ", ") +
				") FROM (VALUES " + sweepRows(vals, args, i+1) + ") AS s(" + strings.Join(cols, ", ") + ")"
		}
		if aggkind == "o" {
			nd := 0
			fmt.Sscan(direct, &nd)
			if nd > len(vals) {
				nd = len(vals)
			}
			order := vals[nd:]
			cols := make([]string, len(order))
			rows := sweepRows(order, args[nd:], i)
			for j := range cols {
				cols[j] = fmt.Sprintf("x%d", j)
			}
			dir := strings.Join(vals[:nd], ", ")
			if len(cols) == 0 {
				return "SELECT " + qname + "(" + dir + ") WITHIN GROUP (ORDER BY 1)"
			}
			return "SELECT " + qname + "(" + dir + ") WITHIN GROUP (ORDER BY " + strings.Join(cols, ", ") + ") FROM (VALUES " + rows + ") AS s(" + strings.Join(cols, ", ") + ")"
		}
		if len(vals) == 0 {
			return "SELECT " + qname + "(*) FROM (VALUES (1), (2), (3)) AS s(x0)"
		}
		cols := make([]string, len(vals))
		for j := range cols {
			cols[j] = fmt.Sprintf("x%d", j)
		}
		order := ""
		if sweepOrdered[name] {
			order = " ORDER BY x0"
		}
		return "SELECT " + qname + "(" + strings.Join(cols, ", ") + order + ") FROM (VALUES " + sweepRows(vals, args, i) + ") AS s(" + strings.Join(cols, ", ") + ")"
	case "w":
		call := qname + "(" + strings.Join(vals, ", ") + ")"
		return "SELECT " + call + " OVER (ORDER BY x) FROM (VALUES (1), (2), (2), (3)) AS s(x) ORDER BY x"
	}
	call := qname + "(" + strings.Join(vals, ", ") + ")"
	if retset {
		return "SELECT * FROM " + call
	}
	return "SELECT " + call
}

// sweepRows writes three VALUES rows of the argument types, the first
// row's values vals.
func sweepRows(vals, args []string, i int) string {
	var rows []string
	for r := range 3 {
		row := make([]string, len(args))
		for j, a := range args {
			if r == 0 {
				row[j] = vals[j]
			} else {
				row[j] = sweepValue(a, i+j+r)
			}
		}
		rows = append(rows, "("+strings.Join(row, ", ")+")")
	}
	return strings.Join(rows, ", ")
}

// classify runs the calls of s in both systems and returns its status.
func (s *sweepSig) classify(t *testing.T, run, runPG func(string) ([]string, string)) string {
	var different, refused string
	pgAnswered, allSame, missing := false, true, ""
	for _, q := range s.calls {
		want, wantErr := runPG(q)
		got, gotErr := sweepRun(run, q)
		if wantErr == "" {
			pgAnswered = true
		}
		note := ""
		switch {
		case wantErr == "" && gotErr != "":
			if refused == "" {
				refused = "refused " + gotErr
			}
			note = refused
		case wantErr != "" && gotErr == "":
			note = "different: answers where PostgreSQL fails with " + wantErr
		case wantErr != "" && gotErr != wantErr:
			if gotErr == "42883" || gotErr == "0A000" {
				missing = "missing " + gotErr
				note = missing
			} else {
				note = "different: fails with " + gotErr + " where PostgreSQL fails with " + wantErr
			}
		case wantErr == "" && s.values && !slices.Equal(got, want):
			note = "different values"
			if sweepLastDigits(got, want) {
				note = "different in the last digits of a float"
			}
		case wantErr == "" && len(got) != len(want):
			note = "different row counts"
		}
		if note != "" {
			allSame = false
			if strings.HasPrefix(note, "different") && different == "" {
				different = note
			}
			if *sweepShow {
				t.Logf("%s: %s\n  %s\n  deltaview %s %s\n  PostgreSQL %s %s", s.key, note, q, show(got), gotErr, show(want), wantErr)
			}
		}
	}
	switch {
	case different != "":
		return different
	case refused != "":
		return refused
	case !pgAnswered && missing != "":
		return missing
	case !pgAnswered:
		return "error"
	case allSame:
		return "same"
	}
	return "different"
}

// sweepLastDigits reports whether rows a and b differ only in numbers
// that agree to 13 significant digits (floating-point functions of Go's
// math library and glibc's may differ in the last bit).
func sweepLastDigits(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		fa, fb := strings.Fields(a[i]), strings.Fields(b[i])
		if len(fa) != len(fb) {
			return false
		}
		for j := range fa {
			if fa[j] == fb[j] {
				continue
			}
			x, errx := strconv.ParseFloat(strings.Trim(fa[j], "{},"), 64)
			y, erry := strconv.ParseFloat(strings.Trim(fb[j], "{},"), 64)
			if errx != nil || erry != nil || math.Abs(x-y) > 1e-13*math.Max(math.Abs(x), math.Abs(y)) {
				return false
			}
		}
	}
	return true
}

// sweepRun runs q in the engine; a panic is reported as the code "panic".
func sweepRun(run func(string) ([]string, string), q string) (rows []string, code string) {
	defer func() {
		if r := recover(); r != nil {
			rows, code = nil, "panic"
		}
	}()
	return run(q)
}

func readSweep(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(sweepFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndex(line, " | ")
		if i < 0 {
			t.Fatalf("%s: malformed line %q", sweepFile, line)
		}
		out[line[:i]] = line[i+len(" | "):]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func writeSweep(t *testing.T, got map[string]string, counts map[string]int) {
	t.Helper()
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# The functions (pg_proc) and operators (pg_operator) of PostgreSQL 15 over the\n")
	b.WriteString("# supported types, each called ad hoc with sample arguments in PostgreSQL and in\n")
	b.WriteString("# deltaview by TestFunctionSweep, with the status it finds (see the test). Written\n")
	b.WriteString("# by go test ./internal/engine -run TestFunctionSweep -sweep-rewrite.\n")
	fmt.Fprintf(&b, "# %d signatures: %d same, %d different, %d refused, %d missing, %d error.\n",
		len(got), counts["same"], counts["different"], counts["refused"], counts["missing"], counts["error"])
	for _, k := range keys {
		b.WriteString(k + " | " + got[k] + "\n")
	}
	if err := os.MkdirAll("testdata/funcsweep", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sweepFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sweepFamilies names the families of the table in docs/sql.md, by the
// type of a signature's first argument.
var sweepFamilies = []struct{ name, match string }{
	{"aggregates", "agg "}, {"window functions", "window "},
	{"boolean", "boolean"}, {"numbers", "smallint integer bigint numeric real double"},
	{"strings", "text character"}, {"bytea", "bytea"}, {"bit strings", "bit"}, {"uuid", "uuid"},
	{"network addresses", "inet cidr macaddr"}, {"money", "money"},
	{"geometric", "point lseg box path polygon line circle"},
	{"ranges", "int4range int8range numrange daterange tsrange tstzrange anyrange int4multirange int8multirange nummultirange datemultirange tsmultirange tstzmultirange anymultirange"},
	{"date and time", "date timestamp time interval"}, {"json, jsonb, jsonpath", "json"},
	{"tsvector, tsquery", "tsvector tsquery"}, {"xml", "xml"}, {"arrays and polymorphic", "any"},
}

// sweepFamily returns the family of a signature's key.
func sweepFamily(k string) string {
	for _, f := range sweepFamilies[:2] {
		if strings.HasPrefix(k, f.match) {
			return f.name
		}
	}
	// Text search's signatures, whatever their first argument.
	if strings.Contains(k, "tsvector") || strings.Contains(k, "tsquery") {
		return "tsvector, tsquery"
	}
	// XML's signatures, whose first argument is often text.
	if strings.Contains(k, "xml") || strings.Contains(k, "xpath") {
		return "xml"
	}
	var first string
	if rest, ok := strings.CutPrefix(k, "op "); ok {
		first = rest
		if strings.ContainsRune("+-*/<>=~!@#%^&|`?", rune(rest[0])) { // a prefix operator: its operand
			first = strings.TrimPrefix(rest, strings.Fields(rest)[0]+" ")
		}
	} else {
		args := k[strings.Index(k, "(")+1 : len(k)-1]
		first, _, _ = strings.Cut(args, ",")
		if first == "" {
			return "other"
		}
	}
	first = strings.Trim(first, `"`)
	for _, f := range sweepFamilies[2:] {
		for _, m := range strings.Fields(f.match) {
			if strings.HasPrefix(first, m) {
				return f.name
			}
		}
	}
	return "other"
}

// sweepTable writes the table of docs/sql.md: per family, the signatures
// swept, how many give PostgreSQL's results, and the others by name.
func sweepTable(list map[string]string) string {
	type fam struct {
		n, same, failing int
		gaps             map[string][]string // status → names
	}
	fams := map[string]*fam{}
	for k, st := range list {
		name := sweepFamily(k)
		f := fams[name]
		if f == nil {
			f = &fam{gaps: map[string][]string{}}
			fams[name] = f
		}
		f.n++
		switch st {
		case "same":
			f.same++
			continue
		case "error":
			f.failing++
			continue
		}
		short := k
		if i := strings.Index(k, "("); i >= 0 && !strings.HasPrefix(k, "op ") {
			short = k[strings.Index(k, " ")+1 : i]
		} else {
			short = strings.TrimPrefix(k, "op ")
		}
		short = "`" + strings.Trim(short, `"`) + "`"
		if !slices.Contains(f.gaps[st], short) {
			f.gaps[st] = append(f.gaps[st], short)
		}
	}
	var b strings.Builder
	b.WriteString("| family | signatures | as PostgreSQL | both fail on the samples | the others (status: names) |\n|---|---|---|---|---|\n")
	names := []string{}
	for _, f := range sweepFamilies {
		names = append(names, f.name)
	}
	names = append(names, "other")
	for _, name := range names {
		f := fams[name]
		if f == nil {
			continue
		}
		var gaps []string
		sts := make([]string, 0, len(f.gaps))
		for st := range f.gaps {
			sts = append(sts, st)
		}
		sort.Strings(sts)
		for _, st := range sts {
			slices.Sort(f.gaps[st])
			gaps = append(gaps, st+": "+strings.Join(f.gaps[st], ", "))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", name, f.n, f.same, f.failing, strings.Join(gaps, "; "))
	}
	return b.String()
}
