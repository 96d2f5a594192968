// Domain argument types of operators and aggregates: part of their
// identity, as in PostgreSQL, whose pg_operator and pg_proc hold the
// domain's oid.
package sql

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// SameDomain reports whether a and b are the same domain, or both none.
func SameDomain(a, b *expr.Domain) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a == b || a.TypeName() == b.TypeName()
}

// Names reports whether the reference names o: the same argument types,
// a domain being other than its base type.
func (r OperRef) Names(o *Operator) bool {
	if (o.Left == nil) != (r.Left == nil) || r.Right == nil || o.Right.Type.Kind != r.Right.Kind || !SameDomain(o.Right.Domain, r.RightDomain) {
		return false
	}
	return r.Left == nil || o.Left.Type.Kind == r.Left.Kind && SameDomain(o.Left.Domain, r.LeftDomain)
}

// Ref is the reference naming o.
func (o *Operator) Ref() OperRef {
	r := OperRef{Name: o.Name, Schema: o.Schema, Right: &o.Right.Type, RightDomain: o.Right.Domain}
	if o.Left != nil {
		r.Left, r.LeftDomain = &o.Left.Type, o.Left.Domain
	}
	return r
}

// ParamsSignature is name(types) with the types as declared: a domain by
// its name, as Function.Signature prints them.
func ParamsSignature(name string, ps []FuncParam) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.TypeString()
	}
	return name + "(" + strings.Join(parts, ",") + ")"
}

// Key is the signature of the routine the reference names, as
// Function.Signature and Aggregate.Signature print it: a domain by its
// name.
func (r FuncRef) Key() string {
	ps := make([]FuncParam, len(r.Args))
	for i, t := range r.Args {
		ps[i] = FuncParam{Type: t, Poly: polyAt(r.Polys, i), Domain: domainAt(r.Domains, i)}
	}
	return ParamsSignature(r.Name, ps)
}

// TransParams are the transition function's parameters: the state's,
// then the inputs', as declared.
func (a *Aggregate) TransParams() []FuncParam {
	return append([]FuncParam{a.SType}, a.Args...)
}

// operatorOfOperandDomains is the index among ops, which all take the
// operands' base types, of the one declared of the operands' domains
// (none for an operand of none), as PostgreSQL looks an operator up by
// the operands' types exactly first: 1 === 2::d takes ===(integer,d)
// beside ===(integer,integer). The first when none is.
func (b *binder) operatorOfOperandDomains(s *scope, ops []*Operator, l, r expr.Expr) int {
	if len(ops) == 1 {
		return 0
	}
	var rd, ld *expr.Domain
	rd = b.exprDomain(s, r)
	if l != nil {
		ld = b.exprDomain(s, l)
	}
	for i, o := range ops {
		if SameDomain(o.Right.Domain, rd) && (o.Left == nil || SameDomain(o.Left.Domain, ld)) {
			return i
		}
	}
	return 0
}

// aggOfArgDomains is the candidate aggregate (as an index of cands,
// whose arity is the call's) declared of the arguments' types exactly, a
// domain as its domain, when a domain is among them: PostgreSQL looks for
// it before it reduces the arguments' domains to their base types. nil
// when none is, or no domain is involved.
func (b *binder) aggOfArgDomains(s *scope, cands []*Aggregate, args []expr.Expr) []int {
	doms := make([]*expr.Domain, len(args))
	involved := false
	for i, a := range args {
		doms[i] = b.exprDomain(s, a)
		involved = involved || doms[i] != nil
	}
	for _, a := range cands {
		involved = involved || slices.ContainsFunc(a.Args, func(p FuncParam) bool { return p.Domain != nil })
	}
	if !involved {
		return nil
	}
	var out []int
	for c, a := range cands {
		exact := true
		for i, p := range a.Args {
			exact = exact && p.Type.Kind == args[i].Type().Kind && SameDomain(p.Domain, doms[i])
		}
		if exact {
			out = append(out, c)
		}
	}
	if len(out) != 1 {
		return nil
	}
	return out
}

// preferBaseParams narrows best, the candidates the arguments' base types
// choose among, to those declared of the most of those types themselves
// rather than of a domain over them, as PostgreSQL counts a domain
// parameter as no exact match: ag(1::d3) calls ag(integer) beside ag(d2).
func preferBaseParams(cands []*Aggregate, best []int, types []value.Type) []int {
	if len(best) < 2 {
		return best
	}
	score := func(a *Aggregate) int {
		n := 0
		for i, p := range a.Args {
			if p.Domain == nil && p.Type.Kind == types[i].Kind {
				n++
			}
		}
		return n
	}
	top := -1
	var out []int
	for _, c := range best {
		switch n := score(cands[c]); {
		case n > top:
			top, out = n, []int{c}
		case n == top:
			out = append(out, c)
		}
	}
	return out
}

// aggTransDomains checks, as PostgreSQL's CREATE AGGREGATE, the domains
// of the user-defined transition function a's types name: a parameter of
// a domain takes only that domain ("requires run-time type coercion"
// otherwise, the check of a cast), and the function returns the state's
// type exactly. A function of the types as declared is taken first, then
// one of their base types, as the call resolves.
func (b *binder) aggTransDomains(a *Aggregate) error {
	params := a.TransParams()
	var pick *Function
	for _, fn := range b.lookupFunctions(a.SFunc) {
		if len(fn.Params) != len(params) {
			continue
		}
		kinds, same := true, true
		for i, p := range fn.Params {
			kinds = kinds && p.Type.Kind == params[i].Type.Kind && p.Poly == PolyNone
			same = same && SameDomain(p.Domain, params[i].Domain)
		}
		if kinds && (same || pick == nil) {
			pick = fn
		}
		if kinds && same {
			break
		}
	}
	if pick == nil {
		return nil
	}
	for i, p := range pick.Params {
		if p.Domain != nil && !SameDomain(p.Domain, params[i].Domain) {
			ts := make([]string, len(pick.Params))
			for j, q := range pick.Params {
				ts[j] = q.TypeString()
			}
			return pgerr.New(pgerr.DatatypeMismatch, "function %s(%s) requires run-time type coercion", FuncName(a.SFunc), strings.Join(ts, ", "))
		}
	}
	if len(pick.Cols) == 1 && pick.BaseType && !SameDomain(pick.ColDomain(0), a.SType.Domain) {
		return pgerr.New(pgerr.DatatypeMismatch, "return type of transition function %s is not %s", FuncName(a.SFunc), a.SType.TypeString())
	}
	return nil
}
