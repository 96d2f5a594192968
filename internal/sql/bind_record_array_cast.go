package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// rowArrayCast binds x::t[] where t names a table or view, and
// x::record[]: a cast to an array of row values. ok is false for any
// other type. As in PostgreSQL, ARRAY[…]::t[] casts each element to t
// (ROW(…)::t, '(1,x)'::t), a string is read as an array's text form whose
// elements are records' ('{"(1,x)","(2,y)"}'), and so is an array of
// strings, element by element; NULL is a NULL array, an array of the type
// itself. Other values cannot be cast (42846). The elements of record[]
// cannot be read from text (0A000, as in PostgreSQL).
func (b *binder) rowArrayCast(s *scope, c *pg_query.TypeCast) (e expr.Expr, ok bool, err error) {
	tn := c.TypeName
	if isRecordArrayName(tn) {
		// _record, record[]'s name in pg_type.
		tn = &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode("record")}, ArrayBounds: []*pg_query.Node{pg_query.MakeIntNode(-1)},
			Typemod: -1, Location: tn.Location}
	}
	if tn == nil || len(tn.ArrayBounds) == 0 || len(tn.Names) != 1 || len(tn.Typmods) > 0 {
		return nil, false, nil
	}
	name := tn.Names[0].GetString_().GetSval()
	elem := value.RecordType
	if name != "record" {
		if _, err := value.TypeFromName(name, nil); err == nil {
			return nil, false, nil
		}
		if _, isCTE := b.lookupCTE(name); isCTE {
			return nil, false, nil
		}
		rel, found := b.rowTypeNamed(name)
		if !found {
			return nil, false, nil
		}
		elem = relRowType(rel)
	}
	t := value.ArrayTypeOf(elem)
	if a := c.Arg.GetAArrayExpr(); a != nil {
		if len(a.Elements) == 0 {
			return &expr.Const{V: value.NewArray(t.Kind, nil), T: t}, true, nil
		}
		e, err := b.bindExpr(s, elementCasts(a, tn))
		return e, true, err
	}
	arg, err := b.bindExpr(s, c.Arg)
	if err != nil {
		return nil, true, err
	}
	at := arg.Type()
	switch {
	case at == t:
		return arg, true, nil
	case at.Kind == value.Unknown:
		k, isConst := arg.(*expr.Const)
		if !isConst { // a parameter, which takes the type
			e, err := expr.Coerce(arg, t, true)
			if err != nil {
				return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(c.Location))
			}
			return e, true, nil
		}
		if k.V.IsNull() {
			return &expr.Const{V: value.Null, T: t}, true, nil
		}
		v, err := value.Parse(k.V.Str(), t)
		if err != nil {
			return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(c.Arg, c.Location)))
		}
		if b.inputClock() == nil || !holdsIntervalField(elem) {
			return &expr.Const{V: v, T: t}, true, nil
		}
		// Its intervals read in the style of the session running it.
		return b.recordArrayIn(arg, t, name), true, nil
	case at.Kind.IsString():
		return b.recordArrayIn(arg, t, name), true, nil
	case at.Kind.IsArray() && at.Kind.Elem().IsString():
		// Element by element: the array's text form read as t[].
		txt, err := expr.Coerce(arg, value.TextType, true)
		if err != nil {
			return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(c.Location))
		}
		return b.recordArrayIn(txt, t, name), true, nil
	}
	return nil, true, b.stmt.errf(c.Location, pgerr.CannotCoerce, "cannot cast type %s to %s", at, t)
}

// elementCasts returns ARRAY[e, …] with each element cast to the element
// type of tn, an array type, at the element (PostgreSQL casts an ARRAY
// constructor's elements, not the array): ARRAY[ROW(1, 'x')]::t[] is
// ARRAY[ROW(1, 'x')::t]. A nested constructor is cast to tn itself.
func elementCasts(a *pg_query.A_ArrayExpr, tn *pg_query.TypeName) *pg_query.Node {
	elemName := &pg_query.TypeName{Names: tn.Names, Typemod: -1, Location: tn.Location}
	out := &pg_query.A_ArrayExpr{Location: a.Location, Elements: make([]*pg_query.Node, len(a.Elements))}
	for i, n := range a.Elements {
		to := elemName
		if n.GetAArrayExpr() != nil {
			to = tn
		}
		out.Elements[i] = &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{Arg: n, TypeName: to, Location: nodeLoc(n, a.Location)}}}
	}
	return &pg_query.Node{Node: &pg_query.Node_AArrayExpr{AArrayExpr: out}}
}

// recordArrayIn reads arg, an array's text form, as an array of type t
// (named name[]) when evaluated: its records' intervals in the
// IntervalStyle of the session running an ad-hoc statement, in the
// postgres style in a view.
func (b *binder) recordArrayIn(arg expr.Expr, t value.Type, name string) expr.Expr {
	clock := b.inputClock()
	return &expr.Func{Def: &expr.FuncDef{Name: "array_in", Strict: true, Eval: func(a []value.Value) (value.Value, error) {
		st := value.IntervalPostgres
		if clock != nil {
			st = clock.TextStyle
		}
		return value.ParseIntervalIn(a[0].Str(), t, st)
	}, Print: func(args []expr.Expr) string { return args[0].String() + "::" + name + "[]" }}, Args: []expr.Expr{arg}, T: t}
}

// holdsIntervalField reports whether a field of row type t holds
// intervals (expr.HoldsInterval).
func holdsIntervalField(t value.Type) bool {
	if d := t.RecordDesc(); d != nil {
		return slices.ContainsFunc(d.Fields, func(f value.RecordField) bool { return expr.HoldsInterval(f.Type.Kind) })
	}
	return false
}

// isRecordArrayName reports whether tn names _record, unqualified or in
// pg_catalog, without modifiers or bounds.
func isRecordArrayName(tn *pg_query.TypeName) bool {
	if tn == nil || len(tn.ArrayBounds) > 0 || len(tn.Typmods) > 0 || tn.PctType || tn.Setof {
		return false
	}
	switch len(tn.Names) {
	case 1:
		return tn.Names[0].GetString_().GetSval() == "_record"
	case 2:
		return tn.Names[0].GetString_().GetSval() == "pg_catalog" && tn.Names[1].GetString_().GetSval() == "_record"
	}
	return false
}
