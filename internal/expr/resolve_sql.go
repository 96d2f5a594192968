package expr

import "github.com/deltaview/deltaview/internal/value"

// BestSignatures applies PostgreSQL's resolution of an overloaded call to
// signatures that are not catalog functions (SQL functions): sigs give,
// for each candidate, the parameter kind each argument of the call goes
// to. It returns the indexes of the candidates the arguments convert to
// implicitly, narrowed as ResolveFunc narrows: none when no candidate
// takes the arguments, several when the call is ambiguous.
func BestSignatures(args []value.Type, sigs [][]value.Kind) []int {
	return BestSignaturesOfDomains(args, sigs, nil)
}

// BestSignaturesOfDomains is BestSignatures where dom[i], when not nil,
// marks the parameters of sigs[i] declared of a domain over their kind:
// an argument converts to one as to its base type, but it is never an
// exact match nor a preferred type (PostgreSQL's func_select_candidate
// compares the declared types with the arguments' base types).
func BestSignaturesOfDomains(args []value.Type, sigs [][]value.Kind, dom [][]bool) []int {
	defs := make(map[*FuncDef]int, len(sigs))
	var cands []candidate
	for i, ps := range sigs {
		if accepts(ps, args) {
			d := &FuncDef{}
			defs[d] = i
			c := candidate{def: d, params: ps}
			if i < len(dom) {
				c.dom = dom[i]
			}
			cands = append(cands, c)
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
