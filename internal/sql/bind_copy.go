package sql

import (
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// bindCopy binds COPY table [(columns)] FROM 'file' | STDIN [WITH (…)]:
// options FORMAT text|csv, HEADER [bool], DELIMITER 'c', NULL 's', QUOTE
// 'c' and ESCAPE 'c', with PostgreSQL's defaults per format. COPY … TO
// is bindCopyTo's.
func (b *binder) bindCopy(cs *pg_query.CopyStmt) (Bound, error) {
	if !cs.IsFrom {
		return b.bindCopyTo(cs)
	}
	if cs.Relation == nil {
		return nil, b.refuse(-1, "COPY (query) is not supported")
	}
	if cs.IsProgram {
		return nil, b.refuse(-1, "COPY FROM PROGRAM is not supported")
	}
	if cs.WhereClause != nil {
		return nil, b.refuse(-1, "COPY … WHERE is not supported").WithHint("load into a table, then select from it")
	}
	rel, _, err := b.targetTable(cs.Relation, "copy to")
	if err != nil {
		return nil, err
	}
	if sec := rel.Security; sec != nil {
		if sec.Err != nil {
			return nil, sec.Err
		}
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY FROM not supported with row-level security").
			WithHint("Use INSERT statements instead.")
	}
	c := &Copy{Table: rel.Name, Partition: b.partTarget, File: cs.Filename, Stdin: cs.Filename == "", View: rel.Kind == KindView}
	if len(cs.Attlist) == 0 {
		for i := range rel.Cols {
			if !genCol(rel, i) { // as PostgreSQL: COPY's columns leave out the generated ones
				c.Cols = append(c.Cols, i)
			}
		}
	}
	seen := map[int]bool{}
	for _, n := range cs.Attlist {
		name := n.GetString_().GetSval()
		idx := -1
		for i, col := range rel.Cols {
			if col.Name == name {
				idx = i
			}
		}
		if idx < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", name, rel.Name)
		}
		if seen[idx] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", name)
		}
		if genCol(rel, idx) {
			return nil, genCopyError(name)
		}
		seen[idx] = true
		c.Cols = append(c.Cols, idx)
	}
	for _, o := range cs.Options {
		if d := o.GetDefElem(); d != nil && strings.ToLower(d.Defname) == "format" {
			if arg, _, _ := defArg(d); strings.EqualFold(arg, "debezium") || strings.EqualFold(arg, "upsert") {
				return b.changeCopy(c, strings.ToLower(arg), cs)
			}
		}
	}
	var force []*pg_query.DefElem
	if c.CopyOptions, _, force, err = b.copyOptions(cs); err != nil {
		return nil, err
	}
	for _, d := range force {
		if err := b.forceColumns(d, rel, c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// copyOptions reads COPY's WITH (…) options, checked as PostgreSQL's
// ProcessCopyOptions checks them; forceQuote is COPY … TO's FORCE_QUOTE
// option, nil without one, and force COPY … FROM's FORCE_NOT_NULL and
// FORCE_NULL options, whose columns the caller reads (forceColumns).
func (b *binder) copyOptions(cs *pg_query.CopyStmt) (o CopyOptions, forceQuote *pg_query.DefElem, force []*pg_query.DefElem, err error) {
	from := cs.IsFrom
	var delim, null, quote, escape *string
	format := ""
	seen := map[string]bool{}
	for _, n := range cs.Options {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		name := strings.ToLower(d.Defname)
		if seen[name] {
			return o, nil, nil, b.stmt.errf(d.Location, pgerr.SyntaxError, "conflicting or redundant options")
		}
		seen[name] = true
		arg, isBool, val := defArg(d)
		switch name {
		case "format":
			format = strings.ToLower(arg)
		case "header":
			if !isBool {
				if !from && strings.EqualFold(arg, "match") {
					return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "cannot use %q with HEADER in COPY TO", arg)
				}
				return o, nil, nil, b.stmt.errf(d.Location, pgerr.InvalidParameter, "header requires a Boolean value")
			}
			o.Header = val
		case "delimiter":
			delim = &arg
		case "null":
			null = &arg
		case "quote":
			quote = &arg
		case "escape":
			escape = &arg
		case "force_quote":
			forceQuote = d
		case "force_not_null", "force_null":
			if d.Arg.GetList() == nil {
				return o, nil, nil, b.stmt.errf(d.Location, pgerr.InvalidParameter, "argument to option %q must be a list of column names", name)
			}
			force = append(force, d)
		case "encoding":
			enc, ok := pgenc.Lookup(arg)
			if !ok {
				return o, nil, nil, b.stmt.errf(d.Location, pgerr.InvalidParameter, "argument to option %q must be a valid encoding name", name)
			}
			o.Encoding = enc
		case "freeze":
			if !isBool {
				return o, nil, nil, pgerr.New(pgerr.SyntaxError, "freeze requires a Boolean value")
			}
			o.Freeze = val
		default:
			return o, nil, nil, b.stmt.errf(d.Location, pgerr.FeatureNotSupported, "COPY option %q is not supported", d.Defname).
				WithHint("the options are FORMAT, FREEZE, HEADER, DELIMITER, NULL, QUOTE, ESCAPE, ENCODING, FORCE_QUOTE, FORCE_NOT_NULL and FORCE_NULL")
		}
	}
	o.Delimiter, o.Null = '\t', `\N`
	switch format {
	case "", "text":
	case "csv":
		o.Format, o.Delimiter, o.Null, o.Quote, o.Escape = CopyCSV, ',', "", '"', '"'
	case "binary":
		o.Format = CopyBinary
		for _, opt := range []struct {
			given bool
			name  string
		}{{delim != nil, "DELIMITER"}, {null != nil, "NULL"}, {o.Header, "HEADER"}} {
			if opt.given {
				return o, nil, nil, pgerr.New(pgerr.SyntaxError, "cannot specify %s in BINARY mode", opt.name)
			}
		}
		if cs.IsProgram {
			return o, nil, nil, b.refuse(-1, "COPY … FORMAT binary with a program is not supported").
				WithHint("COPY … to or from a file, or FROM STDIN or TO STDOUT through the server: its copy protocol carries the binary format")
		}
	case "debezium", "upsert":
		return o, nil, nil, b.refuse(-1, "COPY … TO with FORMAT %s is not supported: the format carries change events, which COPY … FROM reads", format)
	default:
		return o, nil, nil, pgerr.New(pgerr.InvalidParameter, "COPY format %q not recognized", format)
	}
	csv := o.Format == CopyCSV
	one := func(name string, s *string, dst *byte) error {
		if s == nil {
			return nil
		}
		if len(*s) != 1 {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY %s must be a single one-byte character", name)
		}
		*dst = (*s)[0]
		return nil
	}
	if err := one("delimiter", delim, &o.Delimiter); err != nil {
		return o, nil, nil, err
	}
	if null != nil {
		o.Null = *null
	}
	if o.Delimiter == '\n' || o.Delimiter == '\r' {
		return o, nil, nil, pgerr.New(pgerr.InvalidParameter, "COPY delimiter cannot be newline or carriage return")
	}
	if strings.ContainsAny(o.Null, "\r\n") {
		return o, nil, nil, pgerr.New(pgerr.InvalidParameter, "COPY null representation cannot use newline or carriage return")
	}
	if !csv && strings.IndexByte(`\.abcdefghijklmnopqrstuvwxyz0123456789`, o.Delimiter) >= 0 {
		return o, nil, nil, pgerr.New(pgerr.InvalidParameter, "COPY delimiter cannot be \"%s\"", string(o.Delimiter))
	}
	if !csv && quote != nil {
		return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY quote available only in CSV mode")
	}
	if err := one("quote", quote, &o.Quote); err != nil {
		return o, nil, nil, err
	}
	if csv && o.Delimiter == o.Quote {
		return o, nil, nil, pgerr.New(pgerr.InvalidParameter, "COPY delimiter and quote must be different")
	}
	o.Escape = o.Quote
	if !csv && escape != nil {
		return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY escape available only in CSV mode")
	}
	if err := one("escape", escape, &o.Escape); err != nil {
		return o, nil, nil, err
	}
	if forceQuote != nil && !csv {
		return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force quote available only in CSV mode")
	}
	if forceQuote != nil && from {
		return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force quote only available using COPY TO")
	}
	for _, name := range []string{"force_not_null", "force_null"} {
		if !slices.ContainsFunc(force, func(d *pg_query.DefElem) bool { return strings.EqualFold(d.Defname, name) }) {
			continue
		}
		what := strings.ReplaceAll(strings.TrimPrefix(name, "force_"), "_", " ")
		if !csv {
			return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force %s available only in CSV mode", what)
		}
		if !from {
			return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force %s only available using COPY FROM", what)
		}
	}
	if strings.IndexByte(o.Null, o.Delimiter) >= 0 {
		return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY delimiter must not appear in the NULL specification")
	}
	if csv && strings.IndexByte(o.Null, o.Quote) >= 0 {
		return o, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "CSV quote character must not appear in the NULL specification")
	}
	return o, forceQuote, force, nil
}

// defArg reads an option's argument: its text, and whether it is a
// Boolean and which (a missing argument is TRUE, as in HEADER).
func defArg(d *pg_query.DefElem) (text string, isBool, val bool) {
	if d.Arg == nil {
		return "true", true, true
	}
	switch {
	case d.Arg.GetString_() != nil:
		text = d.Arg.GetString_().Sval
	case d.Arg.GetBoolean() != nil:
		text = strconv.FormatBool(d.Arg.GetBoolean().Boolval)
	case d.Arg.GetInteger() != nil:
		text = strconv.FormatInt(int64(d.Arg.GetInteger().Ival), 10)
	case d.Arg.GetAConst() != nil:
		ac := d.Arg.GetAConst()
		switch {
		case ac.GetSval() != nil:
			text = ac.GetSval().Sval
		case ac.GetIval() != nil:
			text = strconv.FormatInt(int64(ac.GetIval().Ival), 10)
		case ac.GetBoolval() != nil:
			text = strconv.FormatBool(ac.GetBoolval().Boolval)
		}
	case d.Arg.GetTypeName() != nil: // an unquoted word: FORMAT csv
		names := d.Arg.GetTypeName().Names
		if len(names) > 0 {
			text = names[len(names)-1].GetString_().GetSval()
		}
	}
	switch strings.ToLower(text) {
	case "true", "on", "1":
		return text, true, true
	case "false", "off", "0":
		return text, true, false
	}
	return text, false, false
}

// viewOptions reads the WITH (…) options of CREATE MATERIALIZED VIEW:
// PostgreSQL's storage parameters, and max_memory, the view's memory
// budget, and propagation.
func (b *binder) viewOptions(opts []*pg_query.Node, v *CreateView) error {
	for _, o := range opts {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		if strings.ToLower(d.Defname) == "propagation" && d.Defnamespace == "" {
			if err := b.propagationOption(d, v); err != nil {
				return err
			}
			continue
		}
		if _, heap := heapRelOptions[d.Defname]; heap || d.Defnamespace == "toast" {
			if err := b.matViewRelOption(d, v); err != nil {
				return err
			}
			continue
		}
		if strings.ToLower(d.Defname) != "max_memory" || d.Defnamespace != "" {
			// Besides PostgreSQL's, the options are max_memory, the
			// view's memory budget (WITH (max_memory = '64MB')), and
			// propagation (auto, partial or normalise).
			if d.Defnamespace != "" {
				return pgerr.New(pgerr.InvalidParameter, "unrecognized parameter namespace %q", d.Defnamespace)
			}
			return pgerr.New(pgerr.InvalidParameter, "unrecognized parameter %q", d.Defname)
		}
		arg, _, _ := defArg(d)
		n, err := ParseBytes(arg)
		if err != nil {
			return err.(*pgerr.Error).At(b.stmt.SQL, int(d.Location))
		}
		v.MaxMemory = n
	}
	return nil
}
