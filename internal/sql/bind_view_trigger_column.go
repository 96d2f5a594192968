package sql

// A materialized view's column that is a call of a trigger function.

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// viewTriggerColumn is PostgreSQL's error for a materialized view whose
// select list calls a trigger function (42P16 `column "trg" has
// pseudo-type trigger`, as CheckAttributeType gives it before the query
// runs), in place of err, the refusal (0A000) binding the call in a view
// gave; err itself when no column is such a call. colNames are the
// view's column names, when given.
func (b *binder) viewTriggerColumn(sel *pg_query.SelectStmt, colNames []*pg_query.Node, err error) error {
	if pgerr.Code(err) != pgerr.FeatureNotSupported || sel.Op != pg_query.SetOperation_SETOP_NONE {
		return err
	}
	for i, n := range sel.TargetList {
		rt := n.GetResTarget()
		fc := rt.GetVal().GetFuncCall()
		if fc == nil || len(fc.Args) > 0 || fc.AggStar || fc.Over != nil || len(fc.Funcname) == 0 {
			continue
		}
		name := fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()
		var t value.Type
		switch {
		case name == SuppressRedundantName && (len(fc.Funcname) == 1 || fc.Funcname[0].GetString_().GetSval() == "pg_catalog"):
			t = value.TriggerType
		default:
			for _, fn := range b.lookupFunctions(fc.Funcname) {
				if fn.Trigger && len(fn.Params) == 0 {
					t = fn.TriggerType()
					break
				}
			}
		}
		if !t.Kind.IsValueless() {
			continue
		}
		col := name
		switch {
		case i < len(colNames):
			col = colNames[i].GetString_().GetSval()
		case rt.Name != "":
			col = rt.Name
		}
		return checkVoidColumn(col, t)
	}
	return err
}
