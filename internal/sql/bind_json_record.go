package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindJSONRecordFunc binds json(b)_to_record(set) in FROM, whose columns
// the column definition list coldefs gives (42601 without one, as in
// PostgreSQL). The functions are immutable, so a view maintains them per
// row of their argument.
func (b *binder) bindJSONRecordFunc(name string, f *pg_query.FuncCall, coldefs []*pg_query.Node) (*expr.SRF, error) {
	if len(coldefs) == 0 {
		return nil, b.stmt.errf(f.Location, pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
	}
	var names []string
	var cols []value.Type
	for _, n := range coldefs {
		cd := n.GetColumnDef()
		if cd == nil || cd.TypeName == nil {
			return nil, b.refuse(f.Location, "this column definition is not supported")
		}
		t, err := b.typeFromName(cd.TypeName)
		if err != nil {
			return nil, err
		}
		names = append(names, cd.Colname)
		cols = append(cols, t)
	}
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	args := make([]expr.Expr, len(fargs))
	for i, a := range fargs {
		e, err := b.bindExpr(&scope{}, a)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	srf, err := expr.ResolveJSONRecord(name, args, names, cols)
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	return srf, nil
}
