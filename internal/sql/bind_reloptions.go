package sql

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// A table's storage parameters (CREATE TABLE … WITH (fillfactor = 70),
// ALTER TABLE … SET (…) / RESET (…)) are PostgreSQL's heap parameters,
// checked as PostgreSQL checks them and kept as written (pg_class's
// reloptions, psql's \d+ "Options:"). Rows are kept in memory here, so
// none of them changes what the engine does.

// relOption is a storage parameter's kind and bounds.
type relOption struct {
	kind   byte // 'b' boolean, 'i' integer, 'r' real, 'e' enum
	lo, hi float64
	enum   []string
}

// heapRelOptions are PostgreSQL 15's storage parameters of a table.
var heapRelOptions = map[string]relOption{
	"fillfactor":                            {kind: 'i', lo: 10, hi: 100},
	"toast_tuple_target":                    {kind: 'i', lo: 128, hi: 8160},
	"parallel_workers":                      {kind: 'i', lo: 0, hi: 1024},
	"autovacuum_enabled":                    {kind: 'b'},
	"vacuum_truncate":                       {kind: 'b'},
	"user_catalog_table":                    {kind: 'b'},
	"vacuum_index_cleanup":                  {kind: 'e', enum: []string{"on", "off", "auto"}},
	"autovacuum_vacuum_threshold":           {kind: 'i', lo: 0, hi: math.MaxInt32},
	"autovacuum_vacuum_insert_threshold":    {kind: 'i', lo: -1, hi: math.MaxInt32},
	"autovacuum_analyze_threshold":          {kind: 'i', lo: 0, hi: math.MaxInt32},
	"autovacuum_vacuum_cost_limit":          {kind: 'i', lo: 1, hi: 10000},
	"autovacuum_freeze_min_age":             {kind: 'i', lo: 0, hi: 1000000000},
	"autovacuum_freeze_max_age":             {kind: 'i', lo: 100000, hi: 2000000000},
	"autovacuum_freeze_table_age":           {kind: 'i', lo: 0, hi: 2000000000},
	"autovacuum_multixact_freeze_min_age":   {kind: 'i', lo: 0, hi: 1000000000},
	"autovacuum_multixact_freeze_max_age":   {kind: 'i', lo: 10000, hi: 2000000000},
	"autovacuum_multixact_freeze_table_age": {kind: 'i', lo: 0, hi: 2000000000},
	"log_autovacuum_min_duration":           {kind: 'i', lo: -1, hi: math.MaxInt32},
	"autovacuum_vacuum_cost_delay":          {kind: 'r', lo: 0, hi: 100},
	"autovacuum_vacuum_scale_factor":        {kind: 'r', lo: 0, hi: 100},
	"autovacuum_vacuum_insert_scale_factor": {kind: 'r', lo: 0, hi: 100},
	"autovacuum_analyze_scale_factor":       {kind: 'r', lo: 0, hi: 100},
}

// relOptionText returns a storage parameter's text as reloptions keeps
// it, name=value, after checking it as PostgreSQL does (22023).
func (b *binder) relOptionText(d *pg_query.DefElem) (string, error) {
	name := d.Defname
	switch {
	case d.Defnamespace == "toast":
		return "", b.refuse(d.Location, "storage parameters of a table's TOAST table (toast.%s) are not supported", name).
			WithHint("rows are kept in memory here: a table has no TOAST table")
	case d.Defnamespace != "":
		return "", pgerr.New(pgerr.InvalidParameter, "unrecognized parameter namespace %q", d.Defnamespace)
	}
	return b.optionText(d, heapRelOptions)
}

// optionText checks a parameter of the set opts and returns its text,
// name=value.
func (b *binder) optionText(d *pg_query.DefElem, opts map[string]relOption) (string, error) {
	name := d.Defname
	if d.Defnamespace != "" {
		return "", pgerr.New(pgerr.InvalidParameter, "unrecognized parameter namespace %q", d.Defnamespace)
	}
	o, ok := opts[name]
	if !ok {
		return "", pgerr.New(pgerr.InvalidParameter, "unrecognized parameter %q", name)
	}
	v := relOptionArg(d)
	switch o.kind {
	case 'b':
		if _, ok := parseBoolOption(v); !ok {
			return "", pgerr.New(pgerr.InvalidParameter, "invalid value for boolean option %q: %s", name, v)
		}
	case 'e':
		if !slices.Contains(o.enum, strings.ToLower(v)) {
			return "", pgerr.New(pgerr.InvalidParameter, "invalid value for enum option %q: %s", name, v).
				WithDetail(`Valid values are "on", "off", and "auto".`)
		}
	default:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) {
			kind := map[byte]string{'i': "integer", 'r': "floating point"}[o.kind]
			return "", pgerr.New(pgerr.InvalidParameter, "invalid value for %s option %q: %s", kind, name, v)
		}
		if o.kind == 'i' {
			f = math.RoundToEven(f) // PostgreSQL's parse_int rounds a fraction
		}
		if f < o.lo || f > o.hi {
			bounds := fmt.Sprintf(`Valid values are between "%d" and "%d".`, int64(o.lo), int64(o.hi))
			if o.kind == 'r' {
				bounds = fmt.Sprintf(`Valid values are between "%f" and "%f".`, o.lo, o.hi)
			}
			return "", pgerr.New(pgerr.InvalidParameter, "value %s out of bounds for option %q", v, name).WithDetail("%s", bounds)
		}
	}
	return name + "=" + v, nil
}

// relOptionArg is a parameter's value as written; none is "true".
func relOptionArg(d *pg_query.DefElem) string {
	if d.Arg == nil {
		return "true"
	}
	if f := d.Arg.GetFloat(); f != nil {
		return f.Fval
	}
	text, _, _ := defArg(d)
	return text
}

// parseBoolOption reads a boolean as PostgreSQL's parse_bool does.
func parseBoolOption(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "t", "tr", "tru", "true", "y", "ye", "yes", "on", "1":
		return true, true
	case "f", "fa", "fal", "fals", "false", "n", "no", "of", "off", "0":
		return false, true
	}
	return false, false
}

// setRelOptions applies ALTER TABLE … SET (…) or RESET (…) to the
// options of the table's CREATE TABLE statement: a parameter set again
// leaves its place for the end, as in PostgreSQL; RESET of one not set
// does nothing.
func setRelOptions(cs *pg_query.CreateStmt, cmd *pg_query.AlterTableCmd) {
	var names []string
	for _, n := range cmd.Def.GetList().GetItems() {
		names = append(names, n.GetDefElem().GetDefname())
	}
	cs.Options = slices.DeleteFunc(cs.Options, func(n *pg_query.Node) bool {
		d := n.GetDefElem()
		return d != nil && d.Defnamespace == "" && slices.Contains(names, d.Defname)
	})
	if cmd.Subtype == pg_query.AlterTableType_AT_SetRelOptions {
		cs.Options = append(cs.Options, cmd.Def.GetList().GetItems()...)
	}
}

// tableRelOption adds a storage parameter of CREATE TABLE … WITH (…) to
// ct.RelOptions; one given twice is 42601, as in PostgreSQL.
func (b *binder) tableRelOption(d *pg_query.DefElem, ct *CreateTable) error {
	text, err := b.relOptionText(d)
	if err != nil {
		return err
	}
	for _, o := range ct.RelOptions {
		if strings.HasPrefix(o, d.Defname+"=") {
			return b.stmt.errf(d.Location, pgerr.InvalidParameter, "parameter %q specified more than once", d.Defname)
		}
	}
	ct.RelOptions = append(ct.RelOptions, text)
	return nil
}
