// A function in a view's FROM clause (generate_series, unnest) as
// PostgreSQL's analysis types it and ruleutils prints it.
package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/value"
)

// fromCall is the one call of a function in FROM this printer knows:
// not ROWS FROM, no column definition list.
func fromCall(rf *pg_query.RangeFunction) (*pg_query.FuncCall, error) {
	if rf.IsRowsfrom || len(rf.Functions) != 1 || len(rf.Coldeflist) > 0 {
		return nil, errNoDeparse
	}
	items := rf.Functions[0].GetList().GetItems()
	if len(items) == 0 || len(items) > 2 || len(items) == 2 && len(items[1].GetList().GetItems()) > 0 {
		return nil, errNoDeparse
	}
	f := items[0].GetFuncCall()
	if f == nil || f.AggStar || f.AggDistinct || f.AggFilter != nil || len(f.AggOrder) > 0 || f.Over != nil || f.FuncVariadic ||
		f.Funcformat == pg_query.CoercionForm_COERCE_SQL_SYNTAX {
		return nil, errNoDeparse
	}
	var names []string
	for _, n := range f.Funcname {
		names = append(names, n.GetString_().GetSval())
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	if len(names) != 1 || names[0] != "generate_series" && names[0] != "unnest" {
		return nil, errNoDeparse
	}
	return f, nil
}

// functionRefname is the name a function in FROM is known by: its
// alias, else the function's.
func functionRefname(rf *pg_query.RangeFunction) (string, error) {
	f, err := fromCall(rf)
	if err != nil {
		return "", err
	}
	if rf.Alias != nil {
		return rf.Alias.Aliasname, nil
	}
	return f.Funcname[len(f.Funcname)-1].GetString_().GetSval(), nil
}

// function types a function in FROM: its arguments see the items to its
// left, which makes it LATERAL when it reads one of them.
func (fe *fromEnv) function(rf *pg_query.RangeFunction) (*pfrom, error) {
	f, err := fromCall(rf)
	if err != nil {
		return nil, err
	}
	name := f.Funcname[len(f.Funcname)-1].GetString_().GetSval()
	refs := 0
	lp := fe.lateralScope(&refs)
	call := &pexpr{k: pFunc, name: name}
	for _, a := range f.Args {
		if a.GetNamedArgExpr() != nil {
			return nil, errNoDeparse
		}
		x, err := lp.build(a)
		if err != nil {
			return nil, err
		}
		call.args = append(call.args, x)
	}
	switch name {
	case "unnest":
		// unnest(anyarray): one array, its element type out
		if len(call.args) != 1 || !call.args[0].t.Kind.IsArray() {
			return nil, errNoDeparse
		}
		call.t = bareType(call.args[0].t.ElemType())
	default:
		// generate_series over integers or numeric: the widest of its
		// arguments' types, int4 at least
		if len(call.args) < 2 || len(call.args) > 3 {
			return nil, errNoDeparse
		}
		t := value.Int4Type
		for _, a := range call.args {
			switch a.t.Kind {
			case value.Int2, value.Int4:
			case value.Int8:
				if t.Kind == value.Int4 {
					t = value.Type{Kind: value.Int8, Mod: -1}
				}
			case value.Numeric:
				t = value.NumericType
			default:
				return nil, errNoDeparse
			}
		}
		for i, a := range call.args {
			if call.args[i], err = lp.coerce(a, t, false); err != nil {
				return nil, err
			}
		}
		call.t = t
	}
	ref := name
	var aliases []string
	if rf.Alias != nil {
		ref = rf.Alias.Aliasname
		for _, c := range rf.Alias.Colnames {
			aliases = append(aliases, c.GetString_().GetSval())
		}
	}
	// A function of a base type names its column as the item.
	cols, types := []string{ref}, []value.Type{call.t}
	if rf.Ordinality {
		cols, types = append(cols, "ordinality"), append(types, value.Type{Kind: value.Int8, Mod: -1})
	}
	if len(aliases) > len(cols) {
		return nil, errNoDeparse
	}
	copy(cols, aliases)
	if len(cols) == 2 && cols[0] == cols[1] {
		return nil, errNoDeparse
	}
	r := &prel{ref: ref, out: fe.name(), cols: cols, types: types}
	out := &pfrom{rel: r, fn: call, ordinality: rf.Ordinality, lateral: rf.Lateral || refs > 0, alias: true, aliasCols: cols}
	return out, fe.add(r)
}
