package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ExplainOptions are EXPLAIN's options, read and checked as PostgreSQL
// 15's ExplainQuery reads them.
type ExplainOptions struct {
	Analyze, Verbose, Costs, Buffers, WAL, Settings bool
	// Timing and Summary default to Analyze.
	Timing, Summary bool
	// Format is text, json, xml or yaml.
	Format string
}

// explainOptions reads e's options: each name as the grammar gives it
// (lower-cased unless quoted), booleans as defGetBoolean reads them, the
// last of a repeated option winning; then WAL and TIMING need ANALYZE.
func (b *binder) explainOptions(e *pg_query.ExplainStmt) (ExplainOptions, error) {
	return ReadExplainOptions(b.stmt, e)
}

// ReadExplainOptions reads the options of e, a statement of st, as
// bindExplain does.
func ReadExplainOptions(st *Stmt, e *pg_query.ExplainStmt) (ExplainOptions, error) {
	o := ExplainOptions{Costs: true, Format: "text"}
	timingSet, summarySet := false, false
	for _, n := range e.Options {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		if d.Defname == "format" {
			s, err := defString(d)
			if err != nil {
				return o, err
			}
			switch s {
			case "text", "json", "xml", "yaml":
				o.Format = s
			default:
				return o, st.errf(d.Location, pgerr.InvalidParameter, "unrecognized value for EXPLAIN option %q: %q", d.Defname, s)
			}
			continue
		}
		var target *bool
		switch d.Defname {
		case "analyze":
			target = &o.Analyze
		case "verbose":
			target = &o.Verbose
		case "costs":
			target = &o.Costs
		case "buffers":
			target = &o.Buffers
		case "wal":
			target = &o.WAL
		case "settings":
			target = &o.Settings
		case "timing":
			target, timingSet = &o.Timing, true
		case "summary":
			target, summarySet = &o.Summary, true
		default:
			return o, st.errf(d.Location, pgerr.SyntaxError, "unrecognized EXPLAIN option %q", d.Defname)
		}
		v, err := defBoolean(d)
		if err != nil {
			return o, err
		}
		*target = v
	}
	if o.WAL && !o.Analyze {
		return o, pgerr.New(pgerr.InvalidParameter, "EXPLAIN option WAL requires ANALYZE")
	}
	if !timingSet {
		o.Timing = o.Analyze
	}
	if o.Timing && !o.Analyze {
		return o, pgerr.New(pgerr.InvalidParameter, "EXPLAIN option TIMING requires ANALYZE")
	}
	if !summarySet {
		o.Summary = o.Analyze
	}
	return o, nil
}

// defString is PostgreSQL's defGetString: an option's value as text.
func defString(d *pg_query.DefElem) (string, error) {
	switch v := d.Arg.GetNode().(type) {
	case nil:
		return "", pgerr.New(pgerr.SyntaxError, "%s requires a parameter", d.Defname)
	case *pg_query.Node_String_:
		return v.String_.Sval, nil
	case *pg_query.Node_Integer:
		return strconv.Itoa(int(v.Integer.Ival)), nil
	case *pg_query.Node_Float:
		return v.Float.Fval, nil
	case *pg_query.Node_Boolean:
		return strconv.FormatBool(v.Boolean.Boolval), nil
	}
	return "", pgerr.New(pgerr.SyntaxError, "%s requires a parameter", d.Defname)
}

// defBoolean is PostgreSQL's defGetBoolean: no value is true; 0 and 1;
// true, false, on and off in any case; anything else 42601.
func defBoolean(d *pg_query.DefElem) (bool, error) {
	if d.Arg == nil {
		return true, nil
	}
	if i := d.Arg.GetInteger(); i != nil {
		switch i.Ival {
		case 0:
			return false, nil
		case 1:
			return true, nil
		}
	} else if s, err := defString(d); err == nil {
		switch strings.ToLower(s) {
		case "true", "on":
			return true, nil
		case "false", "off":
			return false, nil
		}
	}
	return false, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", d.Defname)
}
