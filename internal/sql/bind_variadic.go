package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindVariadicCall binds f(a, VARIADIC arr), a call of a variadic function
// whose variadic arguments are the elements of the array arr (of every
// dimension, in order), as if written one by one: concat(VARIADIC
// ARRAY['a', 'b']) is concat('a', 'b'). The function is resolved for
// arguments of arr's element type. A NULL array makes the call NULL, as
// PostgreSQL's variadic functions return; format, whose format string
// still runs, gets no variadic argument then. The last argument must be
// an array (42804); a function that is not variadic has no such call
// (42883).
func (b *binder) bindVariadicCall(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, error) {
	nodes, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	es := make([]expr.Expr, len(nodes))
	for i, n := range nodes {
		if es[i], err = b.bindExpr(s, n); err != nil {
			return nil, err
		}
	}
	last := len(es) - 1
	if last < 0 {
		return nil, b.stmt.errf(f.Location, pgerr.SyntaxError, "syntax error at or near \")\"")
	}
	at := es[last].Type()
	if at.Kind == value.Unknown {
		return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "could not determine polymorphic type because input has type unknown")
	}
	if !at.Kind.IsArray() {
		return nil, b.stmt.errf(nodeLoc(nodes[last], f.Location), pgerr.DatatypeMismatch, "VARIADIC argument must be an array")
	}
	ts := make([]value.Type, len(es))
	for i, e := range es {
		ts[i] = e.Type()
	}
	ts[last] = at.ElemType()
	def, params, res, err := expr.ResolveVariadicFunc(name, ts)
	if err == nil && (!def.Variadic || last != len(def.Params)-1) {
		// VARIADIC stands for the variadic parameter, and only for it.
		err = expr.NoSuchFunction(name, es)
	}
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	if def.Volatile && b.forView {
		return nil, b.refuse(f.Location, "volatile function %s() cannot be maintained in a view", name).WithHint(volatileHint)
	}
	for i := range es[:last] {
		if i < len(params) {
			if es[i], err = b.coerce(es[i], params[i], f.Location); err != nil {
				return nil, err
			}
		}
	}
	if last < len(params) && params[last].Kind != value.Unknown {
		if es[last], err = b.coerce(es[last], value.ArrayTypeOf(params[last].Unmodified()), nodeLoc(nodes[last], f.Location)); err != nil {
			return nil, err
		}
	}
	inner := def
	spread := &expr.FuncDef{Name: def.Name, Volatile: def.Volatile, Result: res,
		Eval: func(a []value.Value) (value.Value, error) {
			arr := a[len(a)-1]
			vals := append([]value.Value(nil), a[:len(a)-1]...)
			if arr.IsNull() {
				if inner.Name != "format" {
					return value.Null, nil
				}
			} else {
				vals = append(vals, arr.Elems()...)
			}
			if inner.Strict {
				for _, v := range vals {
					if v.IsNull() {
						return value.Null, nil
					}
				}
			}
			return inner.Eval(vals)
		},
		Print: func(args []expr.Expr) string {
			parts := make([]string, len(args))
			for i, a := range args {
				parts[i] = a.String()
			}
			parts[len(parts)-1] = "VARIADIC " + parts[len(parts)-1]
			return name + "(" + strings.Join(parts, ", ") + ")"
		}}
	return &expr.Func{Def: spread, Args: es, T: res}, nil
}
