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
	if b.forView && len(f.AggOrder) == 0 && !b.winAgg {
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
		arg, err := b.bindExpr(as.input, f.Args[0])
		b.agg = as
		if err != nil {
			return nil, err
		}
		structured = arg.Type().Kind.IsArray() || arg.Type().Kind == value.Record
	}
	inner := &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode(perValue)}, Args: f.Args, Location: f.Location,
		Funcformat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL}
	aggArgs := []*pg_query.Node{{Node: &pg_query.Node_FuncCall{FuncCall: inner}}}
	if name == "json_agg" && f.AggDistinct && !structured {
		// DISTINCT compares the values, not their json, which has no
		// equality: array_agg(DISTINCT x), each value made json after
		// (a record's or an array's json is written at binding, where
		// the names of its fields are known: those stay refused).
		aggArgs, finish = f.Args, expr.JSONAggDistinctFinish
	}
	call := &pg_query.FuncCall{Funcname: []*pg_query.Node{pg_query.MakeStrNode("array_agg")},
		Args:     aggArgs,
		AggOrder: f.AggOrder, AggFilter: f.AggFilter, AggDistinct: f.AggDistinct, Location: f.Location,
		Funcformat: f.Funcformat}
	agg, err := b.bindAggCall(call)
	if err != nil {
		return nil, err
	}
	args := []expr.Expr{agg}
	if finish == "json_agg finish" || finish == expr.JSONAggDistinctFinish {
		args = append(args, &expr.Const{V: value.NewBool(structured), T: value.BoolType})
	}
	return b.callFunc(nil, finish, nil, args, f.Location)
}

// noJSONOrder refuses to sort or group values of type json, jsonpath or
// a geometric type or xml, which have no btree order or equality in
// PostgreSQL (jsonb has both), nor to sort xid, cid or aclitem (or its
// arrays), which have equality only: what is "ordering" or "equality".
func (b *binder) noJSONOrder(t value.Type, what string, loc int32) error {
	unordered := what == "ordering" && (t.Kind == value.Xid || t.Kind == value.Cid || t.Kind == value.ACLItem || t.Kind.Elem() == value.ACLItem)
	if !unordered && t.Kind != value.JSON && t.Kind != value.JSONPath && !t.Kind.IsGeometric() && t.Kind != value.XML && t.Kind.Elem() != value.XML && !t.Kind.IsSnapshot() && t.Kind != value.RefCursor && t.Kind != value.Void && t.Kind != value.Cstring {
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
			if rt := targets[i].GetResTarget(); rt != nil {
				loc = nodeLoc(rt.Val, rt.Location)
			}
		}
		if err := b.noJSONOrder(c.Type, "equality", loc); err != nil {
			return err
		}
	}
	return nil
}

// leftmostTargets is the select list of a set operation's first SELECT,
// where PostgreSQL locates an error about a column of the result.
func leftmostTargets(sel *pg_query.SelectStmt) []*pg_query.Node {
	for sel.Op != pg_query.SetOperation_SETOP_NONE && sel.Larg != nil {
		sel = sel.Larg
	}
	return sel.TargetList
}
