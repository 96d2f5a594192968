package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// jsonOps are the operators of json and jsonb, bound as the catalog's
// functions registered under their symbols.
var jsonOps = map[string]bool{"->": true, "->>": true, "#>": true, "#>>": true, "@>": true, "<@": true,
	"?": true, "?|": true, "?&": true, "#-": true, "@?": true, "@@": true}

// jsonOperator binds l op r when op is a json operator, or || or - with a
// jsonb operand; ok is false otherwise.
func (b *binder) jsonOperator(op string, l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	lk, rk := l.Type().Kind, r.Type().Kind
	switch {
	case jsonOps[op]:
		if (op == "@>" || op == "<@") && (lk.IsArray() || rk.IsArray()) {
			return nil, false, nil
		}
	case op == "||" && (lk == value.JSONB && (rk == value.JSONB || rk == value.Unknown) || rk == value.JSONB && lk == value.Unknown):
	case op == "-" && lk == value.JSONB:
	default:
		return nil, false, nil
	}
	e, err = b.callFunc(nil, op, nil, []expr.Expr{l, r}, loc)
	if err != nil {
		if pe, isPG := err.(*pgerr.Error); isPG && pe.Code == pgerr.UndefinedFunction {
			return nil, true, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type()).
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
		}
	}
	return e, true, err
}

// bindJSONAgg binds json_agg(x), jsonb_agg(x), json_object_agg(k, v) and
// jsonb_object_agg(k, v) as a finish over array_agg of each value's json,
// so that they are computed ad hoc and maintained in views as array_agg
// is. Their order is the input's in PostgreSQL: a view, which has no input
// order, takes them only with ORDER BY among their arguments.
func (b *binder) bindJSONAgg(f *pg_query.FuncCall, name, perValue, finish string) (expr.Expr, error) {
	if b.forView && len(f.AggOrder) == 0 {
		return nil, b.refuse(f.Location, "%s without ORDER BY depends on the order of its input and cannot be maintained", name).
			WithHint("order the values: %s(… ORDER BY …)", name)
	}
	want := 1
	if perValue != "to_json" && perValue != "to_jsonb" {
		want = 2
	}
	if len(f.Args) != want || f.AggStar {
		return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(f.Args))
	}
	structured := false
	if name == "json_agg" {
		as := b.agg
		b.agg = nil
		if _, _, whole, _ := b.wholeRow(as.input, f.Args[0]); whole {
			structured = true
		} else {
			arg, err := b.bindExpr(as.input, f.Args[0])
			if err != nil {
				b.agg = as
				return nil, err
			}
			structured = arg.Type().Kind.IsArray()
		}
		b.agg = as
	}
	inner := &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode(perValue)}, Args: f.Args, Location: f.Location,
		Funcformat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL}
	call := &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("array_agg")},
		Args:     []*pg_query.Node{{Node: &pg_query.Node_FuncCall{FuncCall: inner}}},
		AggOrder: f.AggOrder, AggFilter: f.AggFilter, AggDistinct: f.AggDistinct, Location: f.Location,
		Funcformat: f.Funcformat}
	agg, err := b.bindAggCall(call)
	if err != nil {
		return nil, err
	}
	args := []expr.Expr{agg}
	if finish == "json_agg finish" {
		args = append(args, &expr.Const{V: value.NewBool(structured), T: value.BoolType})
	}
	return b.callFunc(nil, finish, nil, args, f.Location)
}

// noJSONOrder refuses to sort or group values of type json or jsonpath,
// which have no order or equality in PostgreSQL (jsonb has both): what is
// "ordering" or "equality".
func (b *binder) noJSONOrder(t value.Type, what string, loc int32) error {
	if t.Kind != value.JSON && t.Kind != value.JSONPath {
		return nil
	}
	err := b.stmt.errf(loc, pgerr.UndefinedFunction, "could not identify an %s operator for type %s", what, t.Kind)
	if what == "ordering" {
		err = err.WithHint("Use an explicit ordering operator or modify the query.")
	}
	return err
}

// noJSONColumns refuses DISTINCT and UNION over a json column; targets,
// when given, locate the column in the select list.
func (b *binder) noJSONColumns(cols []plan.Column, targets []*pg_query.Node) error {
	for i, c := range cols {
		loc := int32(-1)
		if i < len(targets) {
			loc = nodeLoc(targets[i], -1)
		}
		if err := b.noJSONOrder(c.Type, "equality", loc); err != nil {
			return err
		}
	}
	return nil
}

// wholeRow resolves n as a reference to a whole row of a relation in
// scope (t, or t.*, where t names a relation and no column): the
// relation's columns, bound, with their names. ok is false when n is
// anything else, a column of that name included.
func (b *binder) wholeRow(s *scope, n *pg_query.Node) (cols []expr.Expr, names []string, ok bool, err error) {
	cr := n.GetColumnRef()
	if cr == nil || len(cr.Fields) == 0 || len(cr.Fields) > 2 || cr.Fields[0].GetString_() == nil {
		return nil, nil, false, nil
	}
	qual := cr.Fields[0].GetString_().Sval
	if len(cr.Fields) == 2 {
		if cr.Fields[1].GetAStar() == nil {
			return nil, nil, false, nil
		}
	} else if e, _ := b.resolve(s, "", qual, cr.Location); e != nil {
		return nil, nil, false, nil // a column
	}
	for _, lvl := range append([]*scope{s}, b.outers...) {
		for _, c := range lvl.cols {
			if c.qual != qual || c.outer {
				continue
			}
			e, err := b.resolve(s, qual, c.name, cr.Location)
			if err != nil {
				return nil, nil, true, err
			}
			cols, names = append(cols, e), append(names, c.name)
		}
		if len(cols) > 0 {
			return cols, names, true, nil
		}
	}
	return nil, nil, false, nil
}

// bindRowJSON binds row_to_json(t), to_json(t) and to_jsonb(t) of a whole
// row: an object of the row's columns by name ({"id":1,"s":"a"}, as
// row_to_json writes it). ok is false when the argument is not a whole
// row (to_json of a value is a catalog function).
func (b *binder) bindRowJSON(s *scope, name string, f *pg_query.FuncCall) (e expr.Expr, ok bool, err error) {
	if len(f.Args) != 1 || name != "row_to_json" && name != "to_json" && name != "to_jsonb" {
		return nil, false, nil
	}
	if f.Args[0].GetSubLink() != nil {
		return b.subqueryJSON(s, name, f)
	}
	cols, names, ok, err := b.wholeRow(s, f.Args[0])
	if !ok || err != nil {
		return nil, ok, err
	}
	return expr.NewRowToJSON(name, cols, names), true, nil
}

// subqueryJSON binds row_to_json, to_json or to_jsonb of a subquery: a
// record from a subquery has lost its columns' names, which PostgreSQL
// writes as the keys, so it is refused (0A000); a scalar is to_json's.
func (b *binder) subqueryJSON(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, bool, error) {
	e, err := b.bindExpr(s, f.Args[0])
	if err != nil {
		return nil, true, err
	}
	if e.Type().Kind == value.Record {
		return nil, true, b.refuse(f.Location, "%s of a subquery's row is not supported", name).
			WithHint("select the row in FROM and pass it whole: SELECT %s(x) FROM (…) x", name)
	}
	e, err = b.callFunc(s, name, nil, []expr.Expr{e}, f.Location)
	return e, true, err
}
