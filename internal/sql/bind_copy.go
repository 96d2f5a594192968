package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// bindCopy binds COPY table [(columns)] FROM 'file' | STDIN [WITH (…)]:
// options FORMAT text|csv, HEADER [bool], DELIMITER 'c', NULL 's', QUOTE
// 'c' and ESCAPE 'c', with PostgreSQL's defaults per format.
func (b *binder) bindCopy(cs *pg_query.CopyStmt) (Bound, error) {
	if !cs.IsFrom {
		return nil, b.refuse(-1, "COPY … TO is not supported").WithHint("query the view with SELECT, or use --format csv")
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
	c := &Copy{Table: rel.Name, Partition: b.partTarget, File: cs.Filename, Stdin: cs.Filename == "", Delimiter: '\t', Null: `\N`, View: rel.Kind == KindView}
	if len(cs.Attlist) == 0 {
		for i := range rel.Cols {
			c.Cols = append(c.Cols, i)
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
		seen[idx] = true
		c.Cols = append(c.Cols, idx)
	}
	var delim, null, quote, escape *string
	format := ""
	for _, o := range cs.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		arg, isBool, val := defArg(d)
		switch strings.ToLower(d.Defname) {
		case "format":
			format = strings.ToLower(arg)
		case "header":
			if !isBool {
				return nil, b.stmt.errf(d.Location, pgerr.InvalidParameter, "header requires a Boolean value")
			}
			c.Header = val
		case "delimiter":
			delim = &arg
		case "null":
			null = &arg
		case "quote":
			quote = &arg
		case "escape":
			escape = &arg
		default:
			return nil, b.stmt.errf(d.Location, pgerr.FeatureNotSupported, "COPY option %q is not supported", d.Defname).
				WithHint("the options are FORMAT, HEADER, DELIMITER, NULL, QUOTE and ESCAPE")
		}
	}
	switch format {
	case "", "text":
	case "csv":
		c.Format, c.Delimiter, c.Null, c.Quote, c.Escape = CopyCSV, ',', "", '"', '"'
	case "debezium", "upsert":
		return b.changeCopy(c, format, cs)
	default:
		return nil, pgerr.New(pgerr.InvalidParameter, "COPY format %q not recognized", format)
	}
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
	if err := one("delimiter", delim, &c.Delimiter); err != nil {
		return nil, err
	}
	if c.Format != CopyCSV && (quote != nil || escape != nil) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY QUOTE and ESCAPE are available only in CSV mode")
	}
	if err := one("quote", quote, &c.Quote); err != nil {
		return nil, err
	}
	if err := one("escape", escape, &c.Escape); err != nil {
		return nil, err
	}
	if null != nil {
		c.Null = *null
	}
	if c.Delimiter == '\n' || c.Delimiter == '\r' || (c.Format == CopyText && c.Delimiter == '\\') {
		return nil, pgerr.New(pgerr.InvalidParameter, "COPY delimiter cannot be %q", string(c.Delimiter))
	}
	if c.Format == CopyCSV && c.Delimiter == c.Quote {
		return nil, pgerr.New(pgerr.InvalidParameter, "COPY delimiter and quote must be different")
	}
	return c, nil
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
// only max_memory, the view's memory budget.
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
		if strings.ToLower(d.Defname) != "max_memory" || d.Defnamespace != "" {
			return b.refuse(d.Location, "option %q of CREATE MATERIALIZED VIEW is not supported", d.Defname).
				WithHint("the options are max_memory, the view's memory budget (WITH (max_memory = '64MB')), and propagation (auto, partial or normalise)")
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
