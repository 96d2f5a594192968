package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindEnumCall binds enum_first, enum_last and enum_range, whose result
// is read from the enum type of their arguments (PostgreSQL's anyenum),
// not from their values; ok is false for other functions. A materialized
// view refuses them: ALTER TYPE … ADD VALUE changes what they return
// without changing any row.
func (b *binder) bindEnumCall(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, bool, error) {
	switch {
	case name == "enum_first" || name == "enum_last":
		if len(f.Args) != 1 {
			return nil, false, nil
		}
	case name == "enum_range":
		if len(f.Args) != 1 && len(f.Args) != 2 {
			return nil, false, nil
		}
	default:
		return nil, false, nil
	}
	var args []expr.Expr
	var t value.Type
	for _, a := range f.Args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, true, err
		}
		args = append(args, e)
		if e.Type().IsEnum() && !t.IsEnum() {
			t = e.Type()
		}
	}
	if !t.IsEnum() {
		return nil, true, b.noEnumFunc(name, args, f.Location)
	}
	for i, e := range args {
		c, err := expr.Coerce(e, t, false)
		if err != nil {
			return nil, true, b.noEnumFunc(name, args, f.Location)
		}
		args[i] = c
	}
	if b.forView {
		return nil, true, b.refuse(f.Location, "%s() reads the labels of enum %s, which ALTER TYPE … ADD VALUE changes, and cannot be maintained in a materialized view", name, t).
			WithHint("write the labels out")
	}
	def := &expr.FuncDef{Name: name, Params: make([]value.Kind, len(args)), Result: t}
	for i := range def.Params {
		def.Params[i] = value.Enum
	}
	switch name {
	case "enum_first", "enum_last":
		def.Eval = func([]value.Value) (value.Value, error) {
			all := value.EnumRange(t, value.Null, value.Null)
			if len(all) == 0 {
				return value.Null, pgerr.New("55000", "enum %s contains no values", t)
			}
			if name == "enum_first" {
				return all[0], nil
			}
			return all[len(all)-1], nil
		}
	default:
		def.Result = value.ArrayTypeOf(t)
		def.Eval = func(a []value.Value) (value.Value, error) {
			lo, hi := value.Null, value.Null
			if len(a) == 2 {
				lo, hi = a[0], a[1]
			}
			return value.NewArray(value.ArrayOf(value.Enum), value.EnumRange(t, lo, hi)), nil
		}
	}
	return &expr.Func{Def: def, Args: args, T: def.Result}, true, nil
}

// noEnumFunc is 42883 for an enum function called with arguments that
// are not of one enum type.
func (b *binder) noEnumFunc(name string, args []expr.Expr, loc int32) error {
	ts := ""
	for i, e := range args {
		if i > 0 {
			ts += ", "
		}
		ts += e.Type().String()
	}
	return b.stmt.errf(loc, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, ts).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}
