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
		var args []expr.Expr
		if x.Else != nil {
			args = append(args, x.Else)
		}
		for _, w := range x.Whens {
			args = append(args, w.Result)
		}
		d, known := b.sameDomain(s, args)
		if x.Else == nil && d != nil && d.Elem() == nil {
			return nil, true
		}
		return d, known
	case *expr.Coalesce:
		return b.sameDomain(s, x.Args)
	case *expr.MinMax:
		return b.sameDomain(s, x.Args)
	case *expr.Func:
		return b.subscriptDomain(s, x)
	case *expr.FieldSelect:
		return b.selectedFieldDomain(x)
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

// sameDomain is the domain of the type PostgreSQL's select_common_type
// picks for args: the domain every one of them is of; or, where they
// differ, the array type of a domain d[] that the first typed one (an
// untyped literal, noteUntyped, is passed over) is of, since d[] and
// its base array type (or another d2[] over the same base) each coerce
// implicitly to the other and the first is kept then; nil for another
// domain or none. Not known when that depends on a domain that is not
// known.
func (b *binder) sameDomain(s *scope, args []expr.Expr) (*expr.Domain, bool) {
	var first, all *expr.Domain
	firstSeen, mixed, unknown := false, false, false
	for _, a := range args {
		if b.untyped[a] {
			mixed = true // an unknown literal is of no domain
			continue
		}
		d, known := b.exprDomainKnown(s, a)
		if !firstSeen {
			firstSeen = true
			if !known {
				return nil, false
			}
			first, all = d, d
			continue
		}
		switch {
		case !known:
			unknown = true
		case d != all:
			mixed = true
		}
	}
	if first.Elem() != nil {
		for _, a := range args {
			if !b.untyped[a] && a.Type().Kind != first.Def().Base.Kind {
				return nil, true // coerced to another array type
			}
		}
		return first, true
	}
	if first == nil || mixed {
		return nil, true
	}
	if unknown {
		return nil, false
	}
	return first, true
}

// noteUntyped records that e was bound from an untyped literal (a quoted
// string, NULL) that took the type of the expressions beside it: it does
// not change the array type of a domain they share.
func (b *binder) noteUntyped(e expr.Expr) {
	if b.untyped == nil {
		b.untyped = map[expr.Expr]bool{}
	}
	b.untyped[e] = true
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

// setOpOrigins are the origins of a set operation's columns, lt and rt
// its operands' columns: the domain of a column whose operands' columns
// are both of it, or the left one's array type of a domain over an
// array of the same type (sameDomain).
func (b *binder) setOpOrigins(l, r []Origin, lt, rt []plan.Column, llit, rlit []bool) []Origin {
	var out []Origin
	typed := func(o Origin) bool { return o.Rel != "" || o.Typed || o.Domain != nil }
	for i := 0; i < len(l) && i < len(r); i++ {
		d := b.originDomain(l[i])
		switch rd := b.originDomain(r[i]); {
		case d == nil && i < len(llit) && llit[i] && rd.Elem() != nil:
			// An untyped literal takes the other operand's array of a
			// domain, which is no domain PostgreSQL reduces to its base
			// type (select_common_type); a scalar domain it reduces.
			d = rd
		case d == nil || rd == d:
		case d.Elem() != nil && i < len(rlit) && rlit[i]:
		case d.Elem() != nil && typed(r[i]) && i < len(lt) && i < len(rt) && lt[i].Type.Kind == rt[i].Type.Kind:
			// d[] over its base array type or another domain's: the
			// first operand's, as sameDomain.
		default:
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

// arrayDomain is the array type whose elements are of the domain d: d[]
// for d, and an array type itself (its arrays stacked, ARRAY[a, b] of
// d[] values, are of it too); nil for nil.
func arrayDomain(d *expr.Domain) *expr.Domain {
	if d == nil || d.Elem() != nil {
		return d
	}
	return d.ArrayOf()
}

// aggDomain is the domain of an aggregate's result: array_agg of values
// of a domain d, or of d[], is of d[] (its anyarray result takes the
// argument's array type); any other aggregate's is of its base type.
func (b *binder) aggDomain(as *aggScope, call *plan.AggCall) (*expr.Domain, bool) {
	if call.Name != "array_agg" || call.User != nil || call.Arg == nil {
		return nil, true
	}
	d, known := b.exprDomainKnown(as.input, call.Arg)
	return arrayDomain(d), known
}

// selectedFieldDomain is the domain of (r).f, a field of a composite type's
// record: its attribute's, d or d[].
func (b *binder) selectedFieldDomain(f *expr.FieldSelect) (*expr.Domain, bool) {
	desc := f.E.Type().RecordDesc()
	if desc == nil || desc.Name == "" {
		return nil, true
	}
	rel, ok := b.rowTypeNamed(desc.Name)
	if !ok || rel.Def == nil || f.Idx < 0 || f.Idx >= len(rel.Def.Cols) || rel.Def.Cols[f.Idx].Type.Kind != f.T.Kind {
		return nil, true
	}
	return rel.Def.Cols[f.Idx].Domain, true
}

// unnestDomains are the domains of srf's columns, one each: unnest of
// an array of d yields values of d (its anyelement result takes the
// array's element type), any other function's columns of none.
func (b *binder) unnestDomains(srf *expr.SRF, args []expr.Expr) []*expr.Domain {
	out := make([]*expr.Domain, len(srf.Cols))
	if srf.Name != "unnest" || len(args) != len(srf.Cols) {
		return out
	}
	for i, a := range args {
		if d := b.exprDomain(b.argScope(), a); d != nil && d.Elem() != nil && d.Elem().Def().Base.Kind == srf.Cols[i].Kind {
			out[i] = d.Elem()
		}
	}
	return out
}
