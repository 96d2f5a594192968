package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// domainRoutines are the routines whose parameters or result are
// declared of domain d, by signature, sorted: PostgreSQL's dependents
// "function f(d) depends on type d", which DROP DOMAIN refuses to leave
// without their type, and whose stored statements name it.
func (e *Engine) domainRoutines(d *expr.Domain) []string {
	var out []string
	for _, fns := range e.funcs {
		for _, f := range fns {
			if slices.ContainsFunc(f.Params, func(p sql.FuncParam) bool { return ofDomain(p.Domain, d) }) ||
				slices.ContainsFunc(f.ColDomains, func(c *expr.Domain) bool { return ofDomain(c, d) }) {
				out = append(out, routineKind(nil, f.Procedure)+" "+f.Signature())
			}
		}
	}
	slices.Sort(out)
	return out
}

// domainRoutineObjs are the routines domainRoutines names, in its order.
func (e *Engine) domainRoutineObjs(d *expr.Domain) []*sql.Function {
	var out []*sql.Function
	for _, n := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[n] {
			if slices.ContainsFunc(f.Params, func(p sql.FuncParam) bool { return ofDomain(p.Domain, d) }) ||
				slices.ContainsFunc(f.ColDomains, func(c *expr.Domain) bool { return ofDomain(c, d) }) {
				out = append(out, f)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *sql.Function) int { return strings.Compare(a.Signature(), b.Signature()) })
	return out
}

// domainArrayOnly reports whether the routine f takes and returns d only
// as an array (d[]), so that it depends on d's array type.
func domainArrayOnly(f *sql.Function, d *expr.Domain) bool {
	return !slices.ContainsFunc(f.Params, func(p sql.FuncParam) bool { return p.Domain == d }) &&
		!slices.ContainsFunc(f.ColDomains, func(c *expr.Domain) bool { return c == d })
}
