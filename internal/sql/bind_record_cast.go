package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// rowTypeCast binds x::t where t names a table or view rather than a type:
// a cast to t's row type. ok is false when the type name is not a
// relation's (or is a type's: PostgreSQL's types come first). ROW(…)::t
// casts each field to t's column type, explicitly, and needs as many
// fields as t has columns (42846 otherwise); NULL::t is a NULL of t's
// type; a string literal is read as the record's text form; a record of
// t's type is itself.
func (b *binder) rowTypeCast(s *scope, c *pg_query.TypeCast) (e expr.Expr, ok bool, err error) {
	tn := c.TypeName
	if tn == nil || len(tn.Names) != 1 || len(tn.Typmods) > 0 || len(tn.ArrayBounds) > 0 {
		return nil, false, nil
	}
	name := tn.Names[0].GetString_().Sval
	if _, err := value.TypeFromName(name, nil); err == nil {
		return nil, false, nil
	}
	if _, isCTE := b.lookupCTE(name); isCTE {
		return nil, false, nil
	}
	rel, found := b.cat.Relation(name)
	if !found {
		return nil, false, nil
	}
	t := relRowType(rel)
	arg, err := b.bindExpr(s, c.Arg)
	if err != nil {
		return nil, true, err
	}
	d := t.RecordDesc()
	switch a := arg.(type) {
	case *expr.RowCons:
		if len(a.Args) != len(d.Fields) {
			detail := "Input has too few columns."
			if len(a.Args) > len(d.Fields) {
				detail = "Input has too many columns."
			}
			return nil, true, b.stmt.errf(c.Location, pgerr.CannotCoerce, "cannot cast type record to %s", d.Name).WithDetail("%s", detail)
		}
		args := make([]expr.Expr, len(a.Args))
		names := make([]string, len(a.Args))
		for i, f := range d.Fields {
			if args[i], err = expr.Coerce(a.Args[i], f.Type, true); err != nil {
				return nil, true, b.stmt.errf(c.Location, pgerr.CannotCoerce, "cannot cast type record to %s", d.Name).
					WithDetail("Cannot cast type %s to %s in column %d.", typeNameNoMod(a.Args[i].Type()), typeNameNoMod(f.Type), i+1)
			}
			names[i] = f.Name
		}
		return expr.NewRecordCons(args, names, "", d.Name, false), true, nil
	case *expr.Const:
		if a.V.IsNull() {
			return &expr.Const{V: value.Null, T: t}, true, nil
		}
		if a.T.Kind == value.Unknown {
			v, err := value.ParseRecord(a.V.Str(), t)
			if err != nil {
				return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(c.Arg, c.Location)))
			}
			return &expr.Const{V: v, T: t}, true, nil
		}
	}
	if arg.Type() == t {
		return arg, true, nil
	}
	if arg.Type().Kind == value.Unknown || arg.Type().Kind == value.Record {
		return nil, true, b.refuse(c.Location, "a cast of %s to the row type %s is not supported", arg.Type(), d.Name).
			WithHint("cast a row constructor: ROW(a, b)::%s", d.Name)
	}
	return nil, true, b.stmt.errf(c.Location, pgerr.CannotCoerce, "cannot cast type %s to %s", arg.Type(), d.Name)
}

// typeNameNoMod is format_type_be's name of t: without its modifier, a
// row type by its name.
func typeNameNoMod(t value.Type) string {
	if t.Kind == value.Record || t.Kind == value.ArrayOf(value.Record) {
		return t.String()
	}
	return t.Kind.String()
}
