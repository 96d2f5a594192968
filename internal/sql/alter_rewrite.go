package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// The reasons PostgreSQL 15 rewrites a table's rows for ALTER TABLE, the
// bits of pg_event_trigger_table_rewrite_reason() (AT_REWRITE_*). The
// engine builds the table anew for every change of its columns; these say
// when PostgreSQL would, for the table_rewrite event triggers.
const (
	RewritePersistence = 1 // SET LOGGED, SET UNLOGGED
	RewriteDefaultVal  = 2 // ADD COLUMN with a volatile default, a generated column
	RewriteColumn      = 4 // ALTER COLUMN … TYPE that converts the stored values
)

// rewriteReason sets at.Rewrite from the columns at adds and converts,
// once alterDone has bound them.
func (w *alterWork) rewriteReason(at *AlterTable) {
	for i, o := range w.origin {
		c := &at.New.Cols[i]
		switch {
		case o < 0:
			// A constant default is kept aside by PostgreSQL, not written
			// into every row.
			if c.Generated != nil || c.Domain != nil && domainHasChecks(c.Domain.Def()) || at.Fill[i] != nil && at.Fill[i].Volatile() {
				at.Rewrite |= RewriteDefaultVal
			}
		case w.using[o] != nil:
			if !sameColumnRef(w.using[o], w.old.Cols[o].Name) || !keepsStored(w.old.Cols[o].Type, c.Type) || c.Domain != nil {
				at.Rewrite |= RewriteColumn
			}
		case at.Cast[i] != nil, c.Domain != nil && c.Domain != w.old.Cols[o].Domain:
			if !keepsStored(w.old.Cols[o].Type, c.Type) || c.Domain != nil && domainHasChecks(c.Domain.Def()) {
				at.Rewrite |= RewriteColumn
			}
		}
	}
}

// sameColumnRef reports whether n is a reference to the column name
// alone.
func sameColumnRef(n *pg_query.Node, name string) bool {
	cr := n.GetColumnRef()
	if cr == nil || len(cr.Fields) == 0 {
		return false
	}
	s := cr.Fields[len(cr.Fields)-1].GetString_()
	return s != nil && s.Sval == name
}

// keepsStored reports whether PostgreSQL converts a value of type
// from to type to without computing it again: a relabelling (varchar to
// text), or a length or precision check that a wider modifier makes
// unnecessary (varchar(5) to varchar(10), numeric(10,2) to numeric(12,2)).
func keepsStored(from, to value.Type) bool {
	switch {
	case from == to:
		return true
	case from.Kind == value.Varchar && to.Kind == value.Text,
		from.Kind == value.Text && to.Kind == value.Varchar && to.Mod < 0:
		return true
	case from.Kind != to.Kind:
		return false
	case to.Mod < 0:
		switch from.Kind {
		case value.Varchar, value.Numeric, value.Varbit, value.Timestamp, value.TimestampTZ, value.Time, value.TimeTZ:
			return true
		}
		return false
	case from.Mod < 0:
		return false
	}
	switch from.Kind {
	case value.Varchar, value.Varbit, value.Timestamp, value.TimestampTZ, value.Time, value.TimeTZ:
		return to.Mod >= from.Mod
	case value.Numeric:
		// The same scale, a precision no smaller.
		return to.Mod&0xffff == from.Mod&0xffff && to.Mod>>16 >= from.Mod>>16
	}
	return false
}

// domainHasChecks reports whether a domain, or one it is over, has
// constraints (NOT NULL or CHECK), which PostgreSQL checks by rewriting.
func domainHasChecks(d *expr.DomainDef) bool {
	for d != nil {
		if d.NotNull || len(d.Checks) > 0 {
			return true
		}
		if d.Parent == nil {
			return false
		}
		d = d.Parent.Def()
	}
	return false
}
