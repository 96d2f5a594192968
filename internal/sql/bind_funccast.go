package sql

import (
	"errors"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// functionCast is PostgreSQL's function-style cast: a call of one
// argument that names a type and no function (int4(x), float8(1),
// timestamptz('…'), json(x)) is the explicit cast x::type, when the cast
// exists. err is the failed resolution, which stands unless it is 42883
// and the cast applies. A constant the cast cannot convert is the cast's
// error, as in PostgreSQL: positioned at a string literal (argLoc), whose
// conversion PostgreSQL reports while parsing, unpositioned for a typed
// constant, which it folds before running.
func (b *binder) functionCast(name string, es, pre []expr.Expr, err error, argLoc int32) (expr.Expr, bool, error) {
	var pe *pgerr.Error
	if len(es) != 1 || len(pre) != 0 || !errors.As(err, &pe) || pe.Code != pgerr.UndefinedFunction {
		return nil, false, nil
	}
	t, terr := value.TypeFromName(name, nil)
	if terr != nil || hasField(es[0].Type(), name) {
		return nil, false, nil // name(t) of a row with a field "name" is the field, before the cast
	}
	out, cerr := expr.Coerce(es[0], t, true)
	if cerr != nil {
		var ce *pgerr.Error
		if !errors.As(cerr, &ce) || ce.Code == pgerr.CannotCoerce || ce.Code == pgerr.DatatypeMismatch {
			return nil, false, nil
		}
		if _, ok := es[0].(*expr.Const); !ok {
			return nil, false, nil
		}
		if es[0].Type().Kind == value.Unknown {
			return nil, true, pgerr.Wrap(cerr).At(b.stmt.SQL, int(argLoc))
		}
		return nil, true, cerr
	}
	return out, true, nil
}

// ambiguousCasts are the type names written as functions whose
// PostgreSQL functions an argument kind fits several times over, none
// preferred: money(integer), money(bigint) and money(numeric) all take a
// smallint.
var ambiguousCasts = map[string]value.Kind{"money": value.Int2}

// ambiguousFunctionCast returns 42725 for a call of a type's name that
// PostgreSQL cannot resolve (ambiguousCasts), nil for any other.
func ambiguousFunctionCast(name string, ts []value.Type) *pgerr.Error {
	if k, ok := ambiguousCasts[name]; !ok || len(ts) != 1 || ts[0].Kind != k {
		return nil
	}
	return pgerr.New(ambiguousFunction, "function %s(%s) is not unique", name, ts[0]).
		WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
}

// notAggregate is the error of a call with DISTINCT, ORDER BY or FILTER
// of a function that is no aggregate: 42883 when no function of that name
// takes its arguments, else 42809, as PostgreSQL reports them.
func (b *binder) notAggregate(s *scope, name string, f *pg_query.FuncCall) error {
	ts := make([]value.Type, 0, len(f.Args))
	for _, a := range f.Args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return err
		}
		ts = append(ts, e.Type())
	}
	if _, _, _, err := expr.ResolveFunc(name, ts); err != nil {
		return pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	what := "FILTER"
	switch {
	case f.AggDistinct:
		what = "DISTINCT"
	case len(f.AggOrder) > 0:
		what = "ORDER BY"
	}
	return b.stmt.errf(f.Location, pgerr.WrongObjectType, "%s specified, but %s is not an aggregate function", what, name)
}

// undefinedTableFunc returns 42883 for a call in FROM of a function
// named by an SQL/JSON word that PostgreSQL 15 does not have
// (json_table(…)), as it reports it; nil for any other name, which may
// be one of PostgreSQL's functions not supported here, or when an
// argument does not bind (the caller's error stands).
func (b *binder) undefinedTableFunc(name string, f *pg_query.FuncCall) error {
	if !sqlJSONWords[name] {
		return nil
	}
	ts := make([]value.Type, 0, len(f.Args))
	for _, a := range f.Args {
		e, err := b.bindExpr(&scope{}, a)
		if err != nil {
			return nil
		}
		ts = append(ts, e.Type())
	}
	if _, _, _, err := expr.ResolveFunc(name, ts); err != nil {
		var pe *pgerr.Error
		if errors.As(err, &pe) && pe.Code == pgerr.UndefinedFunction {
			return pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
		}
	}
	return nil
}

// hasField reports whether t is a composite whose fields include one
// named name: PostgreSQL tries that projection before a function-style
// cast.
func hasField(t value.Type, name string) bool {
	if d := t.RecordDesc(); t.Kind == value.Record && d != nil {
		for _, f := range d.Fields {
			if f.Name == name {
				return true
			}
		}
	}
	return false
}
