package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// regArrayCast binds a cast of an array (or oidvector) e to an array of
// the reg* type t's elements: each element is named (an oid) or looked up
// (a name) as regCast does one, the array keeping its shape, so that
// proargtypes::regtype[] lists type names as in PostgreSQL.
func (b *binder) regArrayCast(e expr.Expr, t value.Type, c *pg_query.TypeCast) (expr.Expr, error) {
	k := t.Kind.Elem()
	sc := b.sysCatalog()
	if sc == nil {
		return nil, b.refuse(c.TypeName.Location, "type %s is not supported here", t)
	}
	if b.forView {
		return nil, b.refuse(c.TypeName.Location, "a cast to %s reads the system catalog and cannot be maintained in a materialized view", t).
			WithHint("cast to oid[], or compare names")
	}
	from := e.Type().Kind
	if from == value.Unknown {
		// A literal: read as text[] first, then look each name up.
		var err error
		if e, err = expr.Coerce(e, value.ArrayType(value.Text), true); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(c.Arg, c.Location)))
		}
		from = e.Type().Kind
	}
	el := from.Elem()
	var in func(value.Value) (value.Value, error)
	if from.IsArray() {
		in = regIn(sc, k, el)
	}
	if in == nil {
		return nil, b.stmt.errf(c.Location, pgerr.CannotCoerce, "cannot cast type %s to %s", e.Type(), t)
	}
	def := &expr.FuncDef{Name: t.String(), Strict: true, Params: []value.Kind{from}, Result: t,
		Eval: func(a []value.Value) (value.Value, error) {
			src := a[0].Elems()
			out := make([]value.Value, len(src))
			for i, v := range src {
				if v.IsNull() {
					continue
				}
				r, err := in(v)
				if err != nil {
					return value.Null, err
				}
				out[i] = r
			}
			return value.NewArrayDims(t.Kind, out, a[0].Dims()), nil
		}}
	f := &expr.Func{Def: def, Args: []expr.Expr{e}, T: t}
	if _, ok := e.(*expr.Const); ok {
		// A constant is resolved now, its unknown names located at it,
		// as PostgreSQL does when it plans the statement.
		v, err := f.Eval(nil)
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(c.Arg, c.Location)))
		}
		return &expr.Const{V: v, T: t}, nil
	}
	return f, nil
}
