package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
)

// PostgreSQL keeps a domain through the expressions that choose among
// their inputs when every input is of that very domain (select_common_type
// picks the inputs' type when all are the same, and smashes domains to
// their base types otherwise): CASE (an omitted ELSE is an untyped NULL,
// so it reduces), COALESCE, GREATEST and LEAST, a set operation's column
// and a VALUES column; a scalar subquery is of its column's type and
// COLLATE of its operand's. Operators, functions, NULLIF and a cast to
// the base type take the base type.

// keptDomain is exprDomainKnown for the expressions that keep a domain,
// nil and known for the others.
func (b *binder) keptDomain(s *scope, e expr.Expr) (*expr.Domain, bool) {
	switch x := e.(type) {
	case *expr.Collate:
		return b.exprDomainKnown(s, x.E)
	case *expr.Case:
		if x.Else == nil {
			return nil, true
		}
		args := []expr.Expr{x.Else}
		for _, w := range x.Whens {
			args = append(args, w.Result)
		}
		return b.sameDomain(s, args)
	case *expr.Coalesce:
		return b.sameDomain(s, x.Args)
	case *expr.MinMax:
		return b.sameDomain(s, x.Args)
	case *expr.Func:
		return b.subscriptDomain(s, x)
	}
	return nil, true
}

// subscriptDomain is the domain of a subscript of an array of a domain:
// an element (a[1]) is of the domain d, a slice (a[1:2]) of d[].
func (b *binder) subscriptDomain(s *scope, f *expr.Func) (*expr.Domain, bool) {
	if f.Def == nil || f.Def.Name != "subscript" && f.Def.Name != "slice" || len(f.Args) == 0 {
		return nil, true
	}
	d, known := b.exprDomainKnown(s, f.Args[0])
	if d == nil || d.Elem() == nil {
		return nil, known
	}
	if f.Def.Name == "subscript" {
		return d.Elem(), true
	}
	return d, true
}

// sameDomain is the domain every one of args is of, nil when they differ
// or one is of none; not known when the others agree and one's domain is
// not known.
func (b *binder) sameDomain(s *scope, args []expr.Expr) (*expr.Domain, bool) {
	var first *expr.Domain
	unknown := false
	for _, a := range args {
		d, known := b.exprDomainKnown(s, a)
		switch {
		case !known:
			unknown = true
		case d == nil || first != nil && d != first:
			return nil, true
		default:
			first = d
		}
	}
	if unknown {
		return nil, false
	}
	return first, true
}

// originDomain is the domain of the column o names: a table's column of
// a domain, or a column PostgreSQL types as a domain.
func (b *binder) originDomain(o Origin) *expr.Domain {
	if o.Rel == "" || o.Col < 0 {
		return o.Domain
	}
	rel, ok := b.cat.Relation(o.Rel)
	if !ok || rel.Def == nil || o.Col >= len(rel.Def.Cols) {
		return nil
	}
	return rel.Def.Cols[o.Col].Domain
}

// columnDomains are the domains of a query's columns cols, taken from
// their origins; nil when none is of a domain.
func (b *binder) columnDomains(origins []Origin, cols []plan.Column) []*expr.Domain {
	var out []*expr.Domain
	for i := 0; i < len(origins) && i < len(cols); i++ {
		if d := b.originDomain(origins[i]); d != nil && d.Def().Base.Kind == cols[i].Type.Kind {
			if out == nil {
				out = make([]*expr.Domain, len(cols))
			}
			out[i] = d
		}
	}
	return out
}

// setOpOrigins are the origins of a set operation's columns: the domain
// of a column whose operands' columns are both of it.
func (b *binder) setOpOrigins(l, r []Origin) []Origin {
	var out []Origin
	typed := func(o Origin) bool { return o.Rel != "" || o.Typed || o.Domain != nil }
	for i := 0; i < len(l) && i < len(r); i++ {
		d := b.originDomain(l[i])
		if d == nil || b.originDomain(r[i]) != d {
			d = nil
		}
		out = append(out, Origin{Domain: d, Typed: typed(l[i]) && typed(r[i])})
	}
	return out
}

// valuesOrigins are the origins of the columns of VALUES rows: the
// domain of a column whose rows are all of it.
func (b *binder) valuesOrigins(rows [][]expr.Expr, width int) []Origin {
	out := make([]Origin, width)
	for c := range out {
		col := make([]expr.Expr, len(rows))
		for r := range rows {
			col[r] = rows[r][c]
		}
		out[c].Domain, out[c].Typed = b.sameDomain(&scope{}, col)
	}
	return out
}

// noteBaseCast records that e, bound for a cast tc that changed nothing,
// is of no domain when tc names none: a value of a domain cast to its
// base type is of the base type.
func (b *binder) noteBaseCast(s *scope, tc *pg_query.TypeCast, e expr.Expr) {
	if d, _ := b.typeDomain(tc.TypeName); d == nil && b.exprDomain(s, e) != nil {
		b.noteDomain(e, nil)
	}
}

// noteDomain records that e, bound, is of the domain d (nil: of its
// base type) whatever it reads: a scalar subquery is of its column's
// domain, a cast to the base type of none.
func (b *binder) noteDomain(e expr.Expr, d *expr.Domain) {
	if b.exprDoms == nil {
		b.exprDoms = map[expr.Expr]*expr.Domain{}
	}
	b.exprDoms[e] = d
}
