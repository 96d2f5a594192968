package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// tableOptions reads the WITH (…) options of CREATE TABLE: change_stream,
// which makes the table one that receives change events (COPY … WITH
// (FORMAT debezium | upsert)) rather than DML, and complete_rows, which
// declares that its events never leave a column unknown. A change-stream
// table needs a primary key: events name rows by key.
func (b *binder) tableOptions(opts []*pg_query.Node, ct *CreateTable) error {
	for _, o := range opts {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		name := strings.ToLower(d.Defname)
		if (name != "change_stream" && name != "complete_rows") || d.Defnamespace != "" {
			// PostgreSQL's storage parameters (bind_reloptions.go).
			if err := b.tableRelOption(d, ct); err != nil {
				return err
			}
			continue
		}
		_, isBool, val := defArg(d)
		if !isBool {
			return b.stmt.errf(d.Location, pgerr.InvalidParameter, "%s requires a Boolean value", name)
		}
		if name == "change_stream" {
			ct.ChangeStream = val
		} else {
			ct.CompleteRows = val
		}
	}
	if ct.CompleteRows && !ct.ChangeStream {
		return pgerr.New(pgerr.InvalidTableDef, "complete_rows applies to change-stream tables only").
			WithHint("WITH (change_stream = true, complete_rows = true)")
	}
	if ct.ChangeStream && ct.PrimaryKey == nil {
		return pgerr.New(pgerr.InvalidTableDef, "change-stream table %q needs a primary key", ct.Name).
			WithHint("change events name the rows they change by key: declare a PRIMARY KEY")
	}
	return nil
}

// propagationOption reads WITH (propagation = 'auto' | 'partial' |
// 'normalise') of CREATE MATERIALIZED VIEW.
func (b *binder) propagationOption(d *pg_query.DefElem, v *CreateView) error {
	arg, _, _ := defArg(d)
	switch p := strings.ToLower(arg); p {
	case "auto", "partial":
		v.Propagation = p
	case "normalise", "normalize":
		v.Propagation = "normalise"
	default:
		return b.stmt.errf(d.Location, pgerr.InvalidParameter, "propagation must be auto, partial or normalise, not %q", arg)
	}
	return nil
}

// changeCopy finishes binding COPY t FROM … WITH (FORMAT debezium |
// upsert): change events in JSON lines, which name their columns, so the
// statement takes no column list and no other option.
func (b *binder) changeCopy(c *Copy, format string, cs *pg_query.CopyStmt) (Bound, error) {
	if len(cs.Attlist) > 0 {
		return nil, b.refuse(-1, "COPY … FORMAT %s takes no column list: events name their columns", format)
	}
	for _, o := range cs.Options {
		d := o.GetDefElem()
		if d != nil && strings.ToLower(d.Defname) != "format" {
			return nil, b.stmt.errf(d.Location, pgerr.FeatureNotSupported, "COPY option %q is not supported with FORMAT %s", d.Defname, format)
		}
	}
	c.Format = CopyDebezium
	if format == "upsert" {
		c.Format = CopyUpsert
	}
	return c, nil
}
