package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// TypeofRecorder is a Catalog told the names of the user types whose
// names pg_typeof calls print: a statement keeping the printed name (a
// materialized view's rows) must be built again when the type is renamed.
type TypeofRecorder interface {
	NoteTypeof(name string)
}

// bindTypeof binds pg_typeof(x): the name of x's type, known when the
// call is bound, as text (PostgreSQL's result is a regtype, which prints
// the same).
func (b *binder) bindTypeof(s *scope, f *pg_query.FuncCall) (expr.Expr, error) {
	if len(f.Args) != 1 {
		return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function pg_typeof with %d arguments does not exist", len(f.Args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	e, err := b.bindExpr(s, f.Args[0])
	if err != nil {
		return nil, err
	}
	tn := e.Type().Kind.String()
	if d := e.Type().RecordDesc(); d != nil && d.Name != "" || e.Type().Enum() != nil || e.Type().UserRange() != nil {
		tn = e.Type().String() // a table's row type or a user type: its name
	}
	if d := b.exprDomain(s, e); d != nil {
		tn = d.TypeName() // a cast to a domain, a parameter or a function's result declared of one
	}
	if tr, ok := b.cat.(TypeofRecorder); ok && tn != e.Type().Kind.String() {
		tr.NoteTypeof(tn)
	}
	name := &expr.Const{V: value.NewText(value.Text, tn), T: value.TextType}
	return &expr.Func{Def: expr.Typeof, Args: []expr.Expr{e, name}, T: value.TextType}, nil
}
