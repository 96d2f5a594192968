package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// userFuncTypes implements sql.UserFuncTypes over the engine's functions,
// for printing the defaults and checks that call them: the function of
// the name whose parameters are the argument types, else the one
// function of the name taking that many arguments.
func (e *Engine) userFuncTypes(name string, args []value.Type) ([]value.Type, value.Type, bool) {
	var cands []*sql.Function
	for _, f := range e.funcs[name] {
		if f.Procedure || f.Generic != nil || len(f.Params) != len(args) || len(f.Cols) != 1 || f.Polymorphic() {
			continue
		}
		cands = append(cands, f)
	}
	params := func(f *sql.Function) []value.Type {
		ps := make([]value.Type, len(f.Params))
		for i, p := range f.Params {
			ps[i] = value.Type{Kind: p.Type.Kind, Mod: -1}
			if p.Type.Enum() != nil {
				ps[i] = p.Type // its name, which a constant's cast prints
			}
		}
		return ps
	}
	for _, f := range cands {
		ps := params(f)
		if slices.EqualFunc(ps, args, func(p, a value.Type) bool { return p.Kind == a.Kind }) {
			return ps, f.Cols[0].Type, true
		}
	}
	if len(cands) == 1 {
		return params(cands[0]), cands[0].Cols[0].Type, true
	}
	return nil, value.Type{}, false
}
