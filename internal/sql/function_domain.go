package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// A routine's parameter or result declared of a domain keeps the domain
// as its type, as PostgreSQL's pg_proc does: f(d) and f(integer) are two
// functions, printed, dropped and altered by those types; a call passes
// an argument of the domain to f(d) and an integer to f(integer)
// (resolveCall), and the result of a function returning d is a value of
// d, checked against it (pg_typeof names it).

// paramDomain is the domain a parameter's type names, nil for another
// type or a pseudo-type.
func (b *binder) paramDomain(tn *pg_query.TypeName, poly Poly) (*expr.Domain, error) {
	if poly != PolyNone || tn == nil {
		return nil, nil
	}
	return b.typeDomain(tn)
}

// addColDomain records the domain of the result column just added, if
// its type names one.
func (b *binder) addColDomain(f *Function, tn *pg_query.TypeName, poly Poly) error {
	d, err := b.paramDomain(tn, poly)
	if err != nil || d == nil {
		return err
	}
	for len(f.ColDomains) < len(f.Cols) {
		f.ColDomains = append(f.ColDomains, nil)
	}
	f.ColDomains[len(f.Cols)-1] = d
	return nil
}

// exprDomain is the domain e's value is of, as PostgreSQL types it: a
// cast to a domain, a parameter declared of one, a call of a function
// returning one, a reference of a table's column of one (bound in s); nil
// for another value.
func (b *binder) exprDomain(s *scope, e expr.Expr) *expr.Domain {
	d, _ := b.exprDomainKnown(s, e)
	return d
}

// exprDomainKnown is exprDomain, known false when e is a column whose
// type deltaview does not follow to a table's column or an expression
// (a subquery's column it does not follow): it may be of a domain there.
func (b *binder) exprDomainKnown(s *scope, e expr.Expr) (*expr.Domain, bool) {
	if d, ok := b.exprDoms[e]; ok { // every expression is a pointer
		return d, true
	}
	switch x := e.(type) {
	case *expr.Col:
		if as := b.agg; as != nil && s == as.post && x.Idx >= 0 && x.Idx < len(as.groups) {
			return b.exprDomainKnown(as.input, as.groups[x.Idx]) // a grouping key
		}
		if as := b.agg; as != nil && s == as.post && x.Idx >= len(as.groups) && x.Idx < len(as.groups)+len(as.aggs) {
			return b.aggDomain(as, &as.aggs[x.Idx-len(as.groups)])
		}
		if s == nil || x.Idx < 0 || x.Idx >= len(s.cols) {
			return nil, false
		}
		src := s.cols[x.Idx].source()
		if src.Rel == "" {
			if d := src.Domain; d != nil && d.Def().Base.Kind == x.T.Kind {
				return d, true
			}
			return nil, src.Typed && src.Domain == nil
		}
		// Looked up as a row type is: an enclosing query's relation, seen
		// from a routine's body, is not read by the routine's caller.
		rel, ok := b.rowTypeRelation(src.Rel)
		if ok && (rel.Kind == KindMatView || rel.Kind == KindView) && src.Col >= 0 && src.Col < len(rel.Cols) && rel.Cols[src.Col].Type == x.T {
			if src.Col < len(rel.ColDomains) {
				return rel.ColDomains[src.Col], true
			}
			return nil, true
		}
		if !ok || rel.Def == nil || src.Col < 0 || src.Col >= len(rel.Def.Cols) || rel.Def.Cols[src.Col].Type != x.T {
			return nil, rel.Def == nil && ok
		}
		return rel.Def.Cols[src.Col].Domain, true
	case *expr.DomainCheck:
		return x.Domain, true
	case *expr.Outer:
		// A column of an enclosing query's scope, or of the FROM items
		// before a lateral one.
		if x.Depth >= 1 && x.Depth <= len(b.outers) {
			return b.exprDomainKnown(b.outers[x.Depth-1], &expr.Col{Idx: x.Idx, T: x.T, Name: x.Name})
		}
		return nil, true
	case *expr.Param:
		return x.Slot.Domain, true
	case *expr.RoutineCall:
		return x.Result, true
	}
	return b.keptDomain(s, e)
}

// domainUnknownAt is the first argument whose domain is not known
// (exprDomainKnown) where the candidates differ in the domain they take,
// so that the call's resolution depends on it; -1 for none.
func domainUnknownAt(cands []*Function, slots [][]int, known []bool) int {
	for i, k := range known {
		if k {
			continue
		}
		var first *expr.Domain
		for c, fn := range cands {
			d := fn.Params[slots[c][i]].Domain
			if c > 0 && d != first {
				return i
			}
			first = d
		}
	}
	return -1
}

// refDomain records the domain of the argument type just added to a
// routine's reference (DROP, ALTER, COMMENT, GRANT), if tn names one.
func (b *binder) refDomain(ref *FuncRef, tn *pg_query.TypeName, poly Poly) error {
	d, err := b.paramDomain(tn, poly)
	if err != nil || d == nil {
		return err
	}
	for len(ref.Domains) < len(ref.Args) {
		ref.Domains = append(ref.Domains, nil)
	}
	ref.Domains[len(ref.Args)-1] = d
	return nil
}

// exactDomainMatch is the candidate whose declared types are the call's
// argument types exactly, when a domain is among them (PostgreSQL looks
// for such a match before it reduces the arguments' domains to their base
// types): f(1::d) calls f(d) beside f(integer). nil when there is none or
// no domain is involved, the call then resolved as any other.
func exactDomainMatch(cands []*Function, slots [][]int, spread []bool, types []value.Type, doms []*expr.Domain) []int {
	involved := slices.ContainsFunc(doms, func(d *expr.Domain) bool { return d != nil })
	for _, fn := range cands {
		involved = involved || slices.ContainsFunc(fn.Params, func(p FuncParam) bool { return p.Domain != nil })
	}
	if !involved {
		return nil
	}
	for c, fn := range cands {
		if spread[c] {
			continue
		}
		exact := true
		for i, p := range slots[c] {
			fp := fn.Params[p]
			if fp.Poly != PolyNone || fp.Domain != doms[i] || types[i].Kind == value.Unknown || fp.Type != types[i] {
				exact = false
				break
			}
		}
		if exact {
			return []int{c}
		}
	}
	return nil
}

// callTypes are a call's argument types as PostgreSQL's messages print
// them, a domain's name for a value of one.
func callTypes(name string, types []value.Type, doms []*expr.Domain) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = t.String()
		if doms[i] != nil {
			parts[i] = doms[i].TypeName()
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// checkedResult makes call check the value a function returning a domain
// returns, as PostgreSQL casts it to the return type: PL/pgSQL's error
// names the function in its context line.
func checkedResult(call *expr.RoutineCall, fn *Function) *expr.RoutineCall {
	if !fn.BaseType || len(fn.Cols) != 1 || fn.ColDomain(0) == nil {
		return call
	}
	call.Result = fn.ColDomain(0)
	if fn.Language == LangPLpgSQL && !fn.SQLCode {
		call.ResultContext = "PL/pgSQL function " + fn.Signature() + " while casting return value to function's return type"
	}
	return call
}
