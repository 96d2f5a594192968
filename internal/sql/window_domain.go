package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
)

// winDomain is the domain of a window function's result, as PostgreSQL
// resolves its polymorphic result from its argument: array_agg(x) OVER
// (…) of a domain d (or of d[]) is of d[], first_value, last_value,
// nth_value, lag and lead of x are of x's domain (lag's and lead's
// default must be of it too: their anycompatible arguments reduce
// domains to base types otherwise); any other function's is of none.
func (b *binder) winDomain(s *scope, fn *plan.WinFunc) (*expr.Domain, bool) {
	arg := fn.Arg
	if fn.Call != nil {
		if as := b.agg; as != nil && s == as.post || fn.Call.User != nil {
			// Over grouped rows the call's arguments are over a scope of
			// their own, not s.
			return nil, false
		}
		arg = fn.Call.Arg
	}
	if arg == nil {
		return nil, true
	}
	switch fn.Kind {
	case plan.WinAgg:
		if fn.Name != "array_agg" {
			return nil, true
		}
		d, known := b.exprDomainKnown(s, arg)
		return arrayDomain(d), known
	case plan.WinFirstValue, plan.WinLastValue, plan.WinNthValue:
		return b.exprDomainKnown(s, arg)
	case plan.WinLag, plan.WinLead:
		if fn.Default != nil {
			return b.sameDomain(s, []expr.Expr{arg, fn.Default})
		}
		return b.exprDomainKnown(s, arg)
	}
	return nil, true
}
