package engine

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/ident"
	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/tsearch"
	"github.com/deltaview/deltaview/internal/value"
)

// The session's settings: PostgreSQL's own that clients, drivers and ORMs
// send (SET, SHOW, RESET, current_setting, set_config), and custom
// settings with a dotted name (myapp.user_id). A setting holds text, as
// SHOW prints it; a few drive the session (the timeouts), the others are
// accepted, checked as PostgreSQL checks them, and shown, with no effect
// (the engine has no planner switches, no work_mem), or are accepted only
// at the one value the engine implements (TimeZone UTC, DateStyle ISO,
// MDY, …) and refused at any other with 0A000.
//
// As in PostgreSQL, settings are transactional: a SET inside a
// transaction block is undone by ROLLBACK, SET LOCAL (and set_config(…,
// true)) lasts until the transaction ends, and an autocommit statement is
// its own transaction. The deltaview.* settings are the engine's, shared
// by every session and not transactional (copy.go).

// gucKind is the type of a setting's value.
type gucKind uint8

const (
	gucString gucKind = iota
	gucBool
	gucInt  // an integer, with a unit when unit is set
	gucReal // a float
	gucEnum // one of enum (case-insensitive), or of hidden
)

// gucDef describes one setting.
type gucDef struct {
	name   string // as SHOW ALL prints it: TimeZone, DateStyle, work_mem
	kind   gucKind
	boot   string // the default, as SHOW prints it
	desc   string // SHOW ALL's description, PostgreSQL's
	report bool   // sent to a client (ParameterStatus) when it changes
	fixed  bool   // read-only: SET is 55P02
	// restart marks a fixed setting PostgreSQL reads at server start
	// (context postmaster), whose SET says so.
	restart bool
	// session marks role and session_authorization (setrole.go): not in
	// SHOW ALL, not reset by RESET ALL, as in PostgreSQL.
	session bool
	// unit is a gucInt's base unit: "kB", "8kB" or "ms"; "" for none.
	unit     string
	min, max float64
	enum     []string          // a gucEnum's values, as the hint lists them
	hidden   map[string]string // other spellings a gucEnum accepts → its value
	// only lists the values the engine implements (canonical, as SHOW
	// prints them); another valid value is 0A000, with onlyHint.
	only     []string
	onlyHint string
	// check validates a gucString's value and returns it as SHOW prints
	// it.
	check func(v string) (string, error)
	// transaction marks transaction_isolation and its kind: a SET lasts
	// until the transaction ends, and the value outside one is the
	// default_ setting's.
	transaction string
}

// gucDefs are the settings by lower-case name ("timezone" for TimeZone).
var gucDefs = map[string]*gucDef{}

func init() {
	for _, d := range gucList {
		gucDefs[strings.ToLower(d.name)] = d
	}
}

var planSwitchDesc = map[string]string{
	"enable_async_append":            "Enables the planner's use of async append plans.",
	"enable_bitmapscan":              "Enables the planner's use of bitmap-scan plans.",
	"enable_gathermerge":             "Enables the planner's use of gather merge plans.",
	"enable_hashagg":                 "Enables the planner's use of hashed aggregation plans.",
	"enable_hashjoin":                "Enables the planner's use of hash join plans.",
	"enable_incremental_sort":        "Enables the planner's use of incremental sort steps.",
	"enable_indexonlyscan":           "Enables the planner's use of index-only-scan plans.",
	"enable_indexscan":               "Enables the planner's use of index-scan plans.",
	"enable_material":                "Enables the planner's use of materialization.",
	"enable_memoize":                 "Enables the planner's use of memoization.",
	"enable_mergejoin":               "Enables the planner's use of merge join plans.",
	"enable_nestloop":                "Enables the planner's use of nested-loop join plans.",
	"enable_parallel_append":         "Enables the planner's use of parallel append plans.",
	"enable_parallel_hash":           "Enables the planner's use of parallel hash plans.",
	"enable_partition_pruning":       "Enables plan-time and execution-time partition pruning.",
	"enable_partitionwise_aggregate": "Enables partitionwise aggregation and grouping.",
	"enable_partitionwise_join":      "Enables partitionwise join.",
	"enable_seqscan":                 "Enables the planner's use of sequential-scan plans.",
	"enable_sort":                    "Enables the planner's use of explicit sort steps.",
	"enable_tidscan":                 "Enables the planner's use of TID scan plans.",
}

var isolationLevels = []string{"serializable", "repeatable read", "read committed", "read uncommitted"}

const (
	timeoutMax = math.MaxInt32
)

var gucList = func() []*gucDef {
	msgLevels := []string{"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"}
	onOff := map[string]string{"true": "on", "false": "off", "yes": "on", "no": "off", "1": "on", "0": "off"}
	l := []*gucDef{
		{name: "application_name", boot: "", report: true, desc: "Sets the application name to be reported in statistics and logs.",
			check: func(v string) (string, error) { return v, nil }},
		{name: "array_nulls", kind: gucBool, boot: "on", desc: "Enable input of NULL elements in arrays."},
		{name: "bytea_output", kind: gucEnum, boot: "hex", enum: []string{"escape", "hex"}, desc: "Sets the output format for bytea."},
		{name: "check_function_bodies", kind: gucBool, boot: "on", desc: "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE."},
		{name: "client_encoding", boot: "UTF8", report: true, desc: "Sets the client's character set encoding.", check: checkClientEncoding},
		{name: "client_min_messages", kind: gucEnum, boot: "notice", enum: msgLevels, hidden: map[string]string{"info": "info", "debug": "debug2"},
			desc: "Sets the message levels that are sent to the client."},
		{name: "cpu_tuple_cost", kind: gucReal, boot: "0.01", max: math.MaxFloat64, desc: "Sets the planner's estimate of the cost of processing each tuple (row)."},
		{name: "DateStyle", boot: "ISO, MDY", report: true, desc: "Sets the display format for date and time values.", check: checkDateStyle},
		{name: "default_table_access_method", boot: "heap", only: []string{"heap"}, onlyHint: "tables are kept in deltaview's own storage, as heap",
			check: func(v string) (string, error) { return v, nil },
			desc:  "Sets the default table access method for new tables."},
		{name: "default_tablespace", boot: "", only: []string{""}, onlyHint: "tables are kept in the database file, the default tablespace",
			check: func(v string) (string, error) { return v, nil },
			desc:  "Sets the default tablespace to create tables and indexes in."},
		{name: "default_text_search_config", boot: "pg_catalog.english", desc: "Sets default text search configuration.", check: checkTextSearchConfig},
		{name: "default_statistics_target", kind: gucInt, boot: "100", min: 1, max: 10000, desc: "Sets the default statistics target."},
		{name: "default_transaction_deferrable", kind: gucBool, boot: "off", desc: "Sets the default deferrable status of new transactions."},
		{name: "default_transaction_isolation", kind: gucEnum, boot: "read committed", enum: isolationLevels,
			desc: "Sets the transaction isolation level of each new transaction."},
		{name: "default_transaction_read_only", kind: gucBool, boot: "off", report: true, desc: "Sets the default read-only status of new transactions."},
		{name: "effective_cache_size", kind: gucInt, unit: "8kB", boot: "4GB", min: 1, max: math.MaxInt32,
			desc: "Sets the planner's assumption about the total size of the data caches."},
		{name: "escape_string_warning", kind: gucBool, boot: "on", desc: "Warn about backslash escapes in ordinary string literals."},
		{name: "block_size", kind: gucInt, boot: "8192", min: 8192, max: 8192, fixed: true, desc: "Shows the size of a disk block."},
		{name: "extra_float_digits", kind: gucInt, boot: "1", min: -15, max: 3,
			desc: "Sets the number of digits displayed for floating-point values."},
		{name: "from_collapse_limit", kind: gucInt, boot: "8", min: 1, max: math.MaxInt32, desc: "Sets the FROM-list size beyond which subqueries are not collapsed."},
		{name: "geqo", kind: gucBool, boot: "on", desc: "Enables genetic query optimization."},
		{name: "idle_in_transaction_session_timeout", kind: gucInt, unit: "ms", boot: "0", max: timeoutMax,
			desc: "Sets the maximum allowed idle time between queries, when in a transaction."},
		{name: "idle_session_timeout", kind: gucInt, unit: "ms", boot: "0", max: timeoutMax,
			desc: "Sets the maximum allowed idle time between queries, when not in a transaction."},
		{name: "max_identifier_length", kind: gucInt, boot: "63", min: 63, max: 63, fixed: true, desc: "Shows the maximum identifier length."},
		{name: "max_index_keys", kind: gucInt, boot: "32", min: 32, max: 32, fixed: true, desc: "Shows the maximum number of index keys."},
		{name: "max_function_args", kind: gucInt, boot: "100", min: 100, max: 100, fixed: true, desc: "Shows the maximum number of function arguments."},
		{name: "data_checksums", kind: gucBool, boot: "off", fixed: true, desc: "Shows whether data checksums are turned on for this cluster."},
		{name: "debug_assertions", kind: gucBool, boot: "off", fixed: true, desc: "Shows whether the running server has assertion checks enabled."},
		{name: "in_hot_standby", kind: gucBool, boot: "off", fixed: true, desc: "Shows whether hot standby is currently active."},
		{name: "wal_block_size", kind: gucInt, boot: "8192", min: 8192, max: 8192, fixed: true, desc: "Shows the block size in the write ahead log."},
		{name: "integer_datetimes", kind: gucBool, boot: "on", fixed: true, report: true, desc: "Shows whether datetimes are integer based."},
		{name: "IntervalStyle", kind: gucEnum, boot: "postgres", report: true, enum: []string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"},
			desc: "Sets the display format for interval values."},
		{name: "jit", kind: gucBool, boot: "on", desc: "Allow JIT compilation."},
		{name: "join_collapse_limit", kind: gucInt, boot: "8", min: 1, max: math.MaxInt32, desc: "Sets the FROM-list size beyond which JOIN constructs are not flattened."},
		{name: "lc_collate", boot: "C", fixed: true, desc: "Shows the collation order locale."},
		{name: "lc_ctype", boot: "C", fixed: true, desc: "Shows the character classification and case conversion locale."},
		{name: "lock_timeout", kind: gucInt, unit: "ms", boot: "0", max: timeoutMax, desc: "Sets the maximum allowed duration of any wait for a lock."},
		{name: "maintenance_work_mem", kind: gucInt, unit: "kB", boot: "64MB", min: 1024, max: math.MaxInt32,
			desc: "Sets the maximum memory to be used for maintenance operations."},
		{name: "max_connections", kind: gucInt, boot: "100", min: 1, max: 262143, fixed: true, restart: true,
			desc: "Sets the maximum number of concurrent connections."},
		{name: "max_parallel_workers_per_gather", kind: gucInt, boot: "2", max: 1024, desc: "Sets the maximum number of parallel processes per executor node."},
		{name: "plan_cache_mode", kind: gucEnum, boot: "auto", enum: []string{"auto", "force_generic_plan", "force_custom_plan"},
			desc: "Controls the planner's selection of custom or generic plan."},
		{name: "quote_all_identifiers", kind: gucBool, boot: "off", desc: "When generating SQL fragments, quote all identifiers."},
		{name: "random_page_cost", kind: gucReal, boot: "4", max: math.MaxFloat64, desc: "Sets the planner's estimate of the cost of a nonsequentially fetched disk page."},
		{name: "role", boot: "none", session: true, desc: "Sets the current role.", check: func(v string) (string, error) { return v, nil }},
		{name: "row_security", kind: gucBool, boot: "on", desc: "Enable row security."},
		{name: "search_path", boot: `"$user", public`, desc: "Sets the schema search order for names that are not schema-qualified.", check: checkSearchPath},
		{name: "seq_page_cost", kind: gucReal, boot: "1", max: math.MaxFloat64, desc: "Sets the planner's estimate of the cost of a sequentially fetched disk page."},
		{name: "server_encoding", boot: "UTF8", fixed: true, report: true, desc: "Shows the server (database) character set encoding."},
		{name: "session_authorization", boot: "", session: true, desc: "Sets the session user name.", check: func(v string) (string, error) { return v, nil }},
		{name: "session_replication_role", kind: gucEnum, boot: "origin", enum: []string{"origin", "replica", "local"},
			desc: "Sets the session's behavior for triggers and rewrite rules."},
		{name: "server_version", boot: ServerVersion, fixed: true, report: true, desc: "Shows the server version."},
		{name: "server_version_num", kind: gucInt, boot: "150000", min: 150000, max: 150000, fixed: true, desc: "Shows the server version as an integer."},
		{name: "standard_conforming_strings", kind: gucBool, boot: "on", report: true, only: []string{"on"},
			onlyHint: "string literals always treat backslashes literally; write E'…' for escapes", desc: "Causes '...' strings to treat backslashes literally."},
		{name: "statement_timeout", kind: gucInt, unit: "ms", boot: "0", max: timeoutMax, desc: "Sets the maximum allowed duration of any statement."},
		{name: "synchronous_commit", kind: gucEnum, boot: "on", enum: []string{"local", "remote_write", "remote_apply", "on", "off"}, hidden: onOff,
			desc: "Sets the current transaction's synchronization level."},
		{name: "temp_buffers", kind: gucInt, unit: "8kB", boot: "8MB", min: 100, max: 1073741823, desc: "Sets the maximum number of temporary buffers used by each session."},
		{name: "TimeZone", boot: "UTC", report: true, desc: "Sets the time zone for displaying and interpreting time stamps.", check: checkTimeZone},
		{name: "transaction_deferrable", kind: gucBool, boot: "off", transaction: "default_transaction_deferrable",
			desc: "Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures."},
		{name: "transaction_isolation", kind: gucEnum, boot: "read committed", enum: isolationLevels, transaction: "default_transaction_isolation",
			desc: "Sets the current transaction's isolation level."},
		{name: "transaction_read_only", kind: gucBool, boot: "off", transaction: "default_transaction_read_only",
			desc: "Sets the current transaction's read-only status."},
		{name: "work_mem", kind: gucInt, unit: "kB", boot: "4MB", min: 64, max: math.MaxInt32, desc: "Sets the maximum memory to be used for query workspaces."},
		{name: "xmloption", kind: gucEnum, boot: "content", enum: []string{"content", "document"},
			desc: "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments."},
	}
	for name, desc := range planSwitchDesc {
		boot := "on"
		if strings.HasPrefix(name, "enable_partitionwise") {
			boot = "off"
		}
		l = append(l, &gucDef{name: name, kind: gucBool, boot: boot, desc: desc})
	}
	slices.SortFunc(l, func(a, b *gucDef) int { return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) })
	return l
}()

// isCustomSetting reports whether name is a custom setting's: two or
// more dotted parts, not the engine's deltaview.*.
func isCustomSetting(name string) bool {
	return strings.Contains(name, ".") && !strings.HasPrefix(name, "deltaview.")
}

// sessionSetting reports whether name (lower case) is a setting of the
// session, not of the engine.
func sessionSetting(name string) bool {
	return gucDefs[name] != nil || isCustomSetting(name)
}

// errUnknownSetting is SET or SHOW of a name no setting has.
func errUnknownSetting(name string) error {
	return pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", name)
}

func errInvalidValue(d *gucDef, v string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", d.name, v)
}

// canonical checks v as a value of d, as PostgreSQL does, and returns it
// as SHOW prints it.
func (d *gucDef) canonical(v string) (string, error) {
	var out string
	switch d.kind {
	case gucBool:
		b, ok := parseBool(v)
		if !ok {
			return "", pgerr.New(pgerr.InvalidParameter, "parameter %q requires a Boolean value", d.name)
		}
		out = "off"
		if b {
			out = "on"
		}
	case gucInt:
		n, err := d.parseInt(v)
		if err != nil {
			return "", err
		}
		out = d.formatInt(n)
	case gucReal:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return "", errInvalidValue(d, v)
		}
		if f < d.min || f > d.max {
			return "", pgerr.New(pgerr.InvalidParameter, "%s is outside the valid range for parameter %q (%g .. %g)", v, d.name, d.min, d.max)
		}
		out = strconv.FormatFloat(f, 'g', -1, 64)
	case gucEnum:
		low := strings.ToLower(strings.TrimSpace(v))
		if slices.Contains(d.enum, low) {
			out = low
		} else if h, ok := d.hidden[low]; ok {
			out = h
		} else {
			return "", errInvalidValue(d, v).WithHint("Available values: %s.", strings.Join(d.enum, ", "))
		}
	default:
		out = v
		if d.check != nil {
			var err error
			if out, err = d.check(v); err != nil {
				return "", err
			}
		}
	}
	if len(d.only) > 0 && !slices.Contains(d.only, out) {
		return "", pgerr.New(pgerr.FeatureNotSupported, "%s = %s is not supported", d.name, quoteSettingValue(out)).
			WithHint("%s; %s accepts %s", d.onlyHint, d.name, strings.Join(d.only, ", "))
	}
	return out, nil
}

func quoteSettingValue(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }

// parseBool reads a Boolean as PostgreSQL's parse_bool does: on, off,
// and prefixes of true, false, yes, no; 1 and 0.
func parseBool(v string) (b, ok bool) {
	s := strings.ToLower(strings.TrimSpace(v))
	if s == "" {
		return false, false
	}
	switch {
	case s == "1", strings.HasPrefix("true", s), strings.HasPrefix("yes", s):
		return true, true
	case s == "0", strings.HasPrefix("false", s), strings.HasPrefix("no", s):
		return false, true
	case s == "on":
		return true, true
	case len(s) >= 2 && strings.HasPrefix("off", s):
		return false, true
	}
	return false, false
}

// memoryUnits and timeUnits are PostgreSQL's, largest first, in bytes
// and milliseconds.
var (
	memoryUnits = []struct {
		name string
		n    float64
	}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}, {"B", 1}}
	timeUnits = []struct {
		name string
		n    float64
	}{{"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}, {"ms", 1}, {"us", 0.001}}
)

// base is the size of d's unit, in bytes or milliseconds.
func (d *gucDef) base() float64 {
	switch d.unit {
	case "kB":
		return 1 << 10
	case "8kB":
		return 8 << 10
	}
	return 1
}

// parseInt reads an integer setting: a number, with a unit when the
// setting has one, rounded to the setting's unit, within its range.
func (d *gucDef) parseInt(v string) (int64, error) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-' || s[i] == '+' || (i > 0 && (s[i] == 'e' || s[i] == 'E'))) {
		i++
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, errInvalidValue(d, v)
	}
	unit := strings.TrimSpace(s[i:])
	if unit != "" {
		if d.unit == "" {
			return 0, errInvalidValue(d, v)
		}
		units, hint := memoryUnits[:], `Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`
		if d.unit == "ms" {
			units, hint = timeUnits[:], `Valid units for this parameter are "us", "ms", "s", "min", "h", and "d".`
		}
		found := false
		for _, u := range units {
			if u.name == unit {
				f, found = f*u.n/d.base(), true
				break
			}
		}
		if !found {
			return 0, errInvalidValue(d, v).WithHint("%s", hint)
		}
	}
	n := math.Round(f)
	if n < d.min || n > d.max {
		shown := strconv.FormatFloat(n, 'f', -1, 64)
		if d.unit != "" {
			shown += " " + d.unit
		}
		return 0, pgerr.New(pgerr.InvalidParameter, "%s is outside the valid range for parameter %q (%s .. %s)",
			shown, d.name, strconv.FormatFloat(d.min, 'f', -1, 64), strconv.FormatFloat(d.max, 'f', -1, 64))
	}
	return int64(n), nil
}

// formatInt prints an integer setting as SHOW does: in the largest unit
// that keeps it whole.
func (d *gucDef) formatInt(n int64) string {
	if d.unit == "" || n <= 0 {
		return strconv.FormatInt(n, 10)
	}
	units := memoryUnits[:]
	if d.unit == "ms" {
		units = timeUnits[:len(timeUnits)-1]
	}
	v := float64(n) * d.base()
	for _, u := range units {
		if math.Mod(v, u.n) == 0 {
			return strconv.FormatFloat(v/u.n, 'f', -1, 64) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// checkTimeZone reads TimeZone as PostgreSQL does: a tz database zone
// in any case (shown as the database names it), a number of hours east
// (SET TIME ZONE -5, shown '<-05>+05'), or a POSIX zone ('UTC+3', three
// hours west). POSIX zones with daylight saving rules are refused (0A000).
func checkTimeZone(v string) (string, error) {
	s := strings.TrimSpace(v)
	if c, ok := utcZones[strings.ToLower(s)]; ok {
		return c, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil { // hours east, as SET TIME ZONE 0
		if n, ok := value.NumericZoneName(f); ok {
			return n, nil
		}
		return "", pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", "TimeZone", v)
	}
	if s != "" && !strings.EqualFold(s, "local") {
		if n, ok := value.ZoneName(s); ok {
			return n, nil
		}
		if _, ok := value.SessionZone(s); ok {
			return s, nil
		}
		if value.IsPosixZone(s) {
			return "", pgerr.New(pgerr.FeatureNotSupported, "time zone %q is not supported", v).
				WithHint("POSIX time zones with daylight saving rules are not supported: name a zone of the tz database, such as 'America/New_York'")
		}
	}
	return "", pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", "TimeZone", v)
}

// utcZones are the tz database's names of UTC, by lower-case name.
var utcZones = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{"UTC", "UCT", "Universal", "Zulu", "GMT", "GMT0", "GMT+0", "GMT-0", "Greenwich",
		"Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "Etc/Greenwich"} {
		m[strings.ToLower(n)] = n
	}
	return m
}()

// checkDateStyle reads DateStyle as PostgreSQL does (an output format
// and an order of fields, either or both), from the boot value.
func checkDateStyle(v string) (string, error) { return dateStyleFrom("ISO, MDY", v) }

// dateStyleFrom reads a DateStyle value as a change to cur, the
// session's: a format alone keeps cur's order, an order alone its
// format (German alone also sets DMY), as PostgreSQL's check_datestyle.
func dateStyleFrom(cur, v string) (string, error) {
	format, order, _ := strings.Cut(cur, ", ")
	var newFormat, newOrder string
	conflict := false
	setFormat := func(f string) {
		conflict = conflict || newFormat != "" && newFormat != f
		newFormat = f
	}
	setOrder := func(o string) {
		conflict = conflict || newOrder != "" && newOrder != o
		newOrder = o
	}
	for _, tok := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		switch strings.ToLower(tok) {
		case "iso":
			setFormat("ISO")
		case "sql":
			setFormat("SQL")
		case "postgres":
			setFormat("Postgres")
		case "german":
			setFormat("German")
			if newOrder == "" {
				order = "DMY"
			}
		case "ymd":
			setOrder("YMD")
		case "dmy", "euro", "european":
			setOrder("DMY")
		case "mdy", "us", "noneuro", "noneuropean":
			setOrder("MDY")
		case "default":
			if newFormat == "" {
				newFormat = "ISO"
			}
			if newOrder == "" {
				newOrder = "MDY"
			}
		default:
			return "", pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", "DateStyle", v).
				WithDetail("Unrecognized key word: %q.", tok)
		}
	}
	if conflict {
		return "", pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", "DateStyle", v).
			WithDetail(`Conflicting "datestyle" specifications.`)
	}
	if newFormat != "" {
		format = newFormat
	}
	if newOrder != "" {
		order = newOrder
	}
	return format + ", " + order, nil
}

// checkClientEncoding accepts PostgreSQL's encodings that convert to and
// from UTF8 (internal/pgenc), under any of their names; a SQL_ASCII
// client's text is neither converted nor, going out, checked, as
// PostgreSQL does in a UTF8 database. MULE_INTERNAL, which does not
// convert, and an unknown name are 22023, as in PostgreSQL.
func checkClientEncoding(v string) (string, error) {
	enc, ok := pgenc.Lookup(v)
	if !ok {
		return "", pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", "client_encoding", v)
	}
	if _, err := pgenc.Get(enc); err != nil {
		return "", pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", "client_encoding", v).
			WithDetail("Conversion between %s and UTF8 is not supported.", enc)
	}
	return enc, nil
}

// checkSearchPath checks that v is a list of names, as PostgreSQL does;
// any schema is accepted (PostgreSQL accepts schemas that do not exist)
// and tables resolve as before: the engine has the one schema public.
func checkSearchPath(v string) (string, error) {
	if _, ok := ident.Split(v, ','); !ok {
		return "", pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", "search_path", v).
			WithDetail("List syntax is invalid.")
	}
	return v, nil
}

// checkTextSearchConfig reads a text search configuration's name, plain
// or qualified by pg_catalog, as SHOW prints it qualified.
func checkTextSearchConfig(v string) (string, error) {
	name, _, err := expr.TextSearchName(v)
	if err != nil {
		return "", err
	}
	if name != "simple" && !tsearch.IsSnowballLanguage(name) {
		return "", pgerr.New(pgerr.InvalidParameter, `invalid value for parameter "default_text_search_config": "%s"`, v)
	}
	if tsearch.LookupConfig(name) == nil {
		return "", pgerr.New(pgerr.FeatureNotSupported, "text search configuration %q is not supported", name).
			WithHint("the english and simple configurations are supported")
	}
	return "pg_catalog." + name, nil
}
