package sql

import (
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// scalarFrom binds a call of a function that returns one value, written
// in FROM (FROM lower('X') AS l, FROM now() n, FROM CAST(1 AS int) c,
// FROM current_date): as in PostgreSQL it is a relation of one row and
// one column, named by the alias or, without one, as the select list
// names the call; WITH ORDINALITY adds ordinality, 1. It is bound as the
// lateral subquery (SELECT call AS name [, 1::bigint AS ordinality]) AS
// alias. ok is false when call is not such a call (its result is a
// record, which PostgreSQL would spread into columns; or no function of
// its name and arguments is known; or it is not a
// lone function without a column definition list, or it is in a view):
// the caller refuses it as before. Ad hoc only.
func (b *binder) scalarFrom(rf *pg_query.RangeFunction, call *pg_query.Node) (plan.Node, *scope, bool, error) {
	if b.forView || len(rf.Functions) != 1 || len(rf.Coldeflist) > 0 {
		return nil, nil, false, nil
	}
	if items := rf.Functions[0].GetList().GetItems(); len(items) > 1 && len(items[1].GetList().GetItems()) > 0 {
		return nil, nil, false, nil
	}
	name := figureName(call)
	if f := call.GetFuncCall(); f != nil {
		name = opName(f.Funcname)
	}
	alias := &pg_query.Alias{Aliasname: name}
	if rf.Alias != nil {
		alias = &pg_query.Alias{Aliasname: rf.Alias.Aliasname, Colnames: rf.Alias.Colnames}
		if len(alias.Colnames) == 0 {
			alias.Colnames = []*pg_query.Node{pg_query.MakeStrNode(alias.Aliasname)}
		}
	}
	targets := []*pg_query.Node{resTarget(call, name)}
	if rf.Ordinality {
		int8Name, err := typeNameOf("bigint")
		if err != nil {
			return nil, nil, true, err
		}
		targets = append(targets, resTarget(castNode(pg_query.MakeAConstIntNode(1, -1), int8Name), "ordinality"))
	}
	sub := &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Lateral: true, Subquery: selectNode(&pg_query.SelectStmt{TargetList: targets}), Alias: alias}}}
	p, sc, err := b.bindFromItem(sub)
	if pgerr.Code(err) == pgerr.UndefinedFunction && !scalarBuiltin(name) {
		return nil, nil, false, nil // refused as a function in FROM
	}
	if err != nil {
		return nil, nil, true, err
	}
	if t := p.Columns()[0].Type; t.Kind.IsValueless() {
		// suppress_redundant_updates_trigger(): PostgreSQL refuses its
		// result type before running it.
		return nil, nil, true, b.stmt.errf(nodeLoc(call, -1), pgerr.DatatypeMismatch, "function %q in FROM has unsupported return type %s", name, t)
	}
	if t := p.Columns()[0].Type; t.Kind == value.Record || t.IsAnonymousRecord() {
		if d := t.RecordDesc(); d == nil || len(d.Fields) == 0 || rf.Ordinality || d.Unregistered {
			return nil, nil, false, nil
		}
		// A built-in function of OUT parameters (pg_last_committed_xact()):
		// a column per field, as (f()).* gives them.
		alias = &pg_query.Alias{Aliasname: alias.Aliasname}
		if rf.Alias != nil {
			alias.Colnames = rf.Alias.Colnames
		}
		star := &pg_query.Node{Node: &pg_query.Node_AIndirection{AIndirection: &pg_query.A_Indirection{Arg: call,
			Indirection: []*pg_query.Node{{Node: &pg_query.Node_AStar{AStar: &pg_query.A_Star{}}}}}}}
		sub := &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
			Lateral: true, Subquery: selectNode(&pg_query.SelectStmt{TargetList: []*pg_query.Node{resTarget(star, "")}}), Alias: alias}}}
		p, sc, err := b.bindFromItem(sub)
		return p, sc, true, err
	}
	return p, sc, true, nil
}

// scalarBuiltin reports whether the engine binds a built-in function
// named name that returns one value, so that a call of it that does not
// resolve is PostgreSQL's 42883, not a function in FROM to refuse.
func scalarBuiltin(name string) bool {
	scalarBuiltinsOnce.Do(func() {
		scalarBuiltins = map[string]bool{}
		for _, p := range expr.BuiltinCatalog().Procs {
			if !p.RetSet && p.Kind == "f" {
				scalarBuiltins[p.Name] = true
			}
		}
	})
	return scalarBuiltins[name]
}

var (
	scalarBuiltinsOnce sync.Once
	scalarBuiltins     map[string]bool
)
