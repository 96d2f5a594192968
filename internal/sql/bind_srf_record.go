package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// selectListCalls reports whether rf is a ROWS FROM that the rewrite of
// set-returning calls in a select list (or GROUP BY) made: its alias is
// one of "?srf?", "?srf1?", "?srfg?", ….
func selectListCalls(rf *pg_query.RangeFunction) bool {
	return rf.Alias != nil && strings.HasPrefix(rf.Alias.Aliasname, "?srf")
}

// bindSelectRecordFunc binds a call of json(b)_populate_recordset or
// json(b)_to_recordset moved from a select list to FROM: one column whose
// values are whole records, as PostgreSQL's select list has them
// (NULL past the call's last row when a longer call runs beside it).
// json(b)_to_recordset has no column definition list there and fails when
// it runs, as in PostgreSQL.
func (b *binder) bindSelectRecordFunc(name string, f *pg_query.FuncCall) (*expr.SRF, error) {
	if expr.IsJSONPopulateFunc(name) {
		srf, rowType, err := b.bindJSONPopulateFunc(name, f, nil, false)
		if err != nil {
			return nil, err
		}
		return expr.RecordValues(srf, rowType), nil
	}
	args, err := b.bindFuncArgs(name, f)
	if err != nil {
		return nil, err
	}
	srf, err := expr.JSONToRecordSetValues(name, args)
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	return srf, nil
}

// bindJSONToRecordValue binds json(b)_to_record(j) outside FROM, a record
// whose columns nothing gives: NULL for a NULL document, else PostgreSQL's
// 0A000 when it runs.
func (b *binder) bindJSONToRecordValue(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, error) {
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	args := make([]expr.Expr, len(fargs))
	for i, a := range fargs {
		if args[i], err = b.bindExpr(s, a); err != nil {
			return nil, err
		}
	}
	e, err := expr.JSONToRecordValue(name, args)
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	return e, nil
}

// bindFuncArgs binds the arguments of a function call in FROM, which read
// only the FROM items before it (LATERAL).
func (b *binder) bindFuncArgs(name string, f *pg_query.FuncCall) ([]expr.Expr, error) {
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	args := make([]expr.Expr, len(fargs))
	for i, a := range fargs {
		if args[i], err = b.bindExpr(b.argScope(), a); err != nil {
			return nil, err
		}
	}
	return args, nil
}

// unnestSeveral is PostgreSQL's error for unnest of several arrays outside
// FROM, where only the one-array form exists.
func (b *binder) unnestSeveral(f *pg_query.FuncCall, args []expr.Expr) error {
	return pgerr.Wrap(expr.NoSuchFunction("unnest", args)).At(b.stmt.SQL, int(f.Location))
}

// rowTypeArg reports whether n is a call of json(b)_populate_recordset
// whose first argument is a typed constant (NULL::t), which gives the
// call its row type and so stays with the call when the rewrite of a
// select list moves the call's other arguments into a subquery.
func rowTypeArg(n *pg_query.Node) bool {
	f := n.GetFuncCall()
	if f == nil || !expr.IsJSONPopulateFunc(opName(f.Funcname)) || len(f.Args) == 0 {
		return false
	}
	tc := f.Args[0].GetTypeCast()
	return tc != nil && tc.Arg.GetAConst() != nil
}

// perRowCalls reports whether item is the ROWS FROM that the rewrite of a
// select list made and a call in it has a volatile argument: PostgreSQL
// calls a select list's function for each row, so it runs for each row
// of the items before it even when its arguments read none of them
// (jsonb_each(jsonb_build_object('n', nextval('s'))) gives each row its
// own value).
func perRowCalls(item *pg_query.Node, p plan.Node) bool {
	rf := item.GetRangeFunction()
	tf, ok := p.(*plan.TableFunc)
	if rf == nil || !ok || !selectListCalls(rf) {
		return false
	}
	for _, f := range tf.Funcs {
		for _, a := range f.Args {
			if a.Volatile() {
				return true
			}
		}
	}
	return false
}
