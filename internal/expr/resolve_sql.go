package expr

import "github.com/deltaview/deltaview/internal/value"

// BestSignatures applies PostgreSQL's resolution of an overloaded call to
// signatures that are not catalog functions (SQL functions): sigs give,
// for each candidate, the parameter kind each argument of the call goes
// to. It returns the indexes of the candidates the arguments convert to
// implicitly, narrowed as ResolveFunc narrows: none when no candidate
// takes the arguments, several when the call is ambiguous.
func BestSignatures(args []value.Type, sigs [][]value.Kind) []int {
	defs := make(map[*FuncDef]int, len(sigs))
	var cands []candidate
	for i, ps := range sigs {
		if accepts(ps, args) {
			d := &FuncDef{}
			defs[d] = i
			cands = append(cands, candidate{d, ps})
		}
	}
	if len(cands) > 1 {
		cands = narrow(cands, args)
	}
	out := make([]int, len(cands))
	for i, c := range cands {
		out[i] = defs[c.def]
	}
	return out
}
