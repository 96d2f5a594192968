// The aggregates and operators whose argument types are a domain (or an
// array of it): PostgreSQL's "function ag(d) depends on type d" and
// "operator ===(integer,d) depends on type d", which DROP DOMAIN refuses
// to leave without their type and CASCADE drops.
package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// domainAggregates are the aggregates taking d or d[], by signature.
func (e *Engine) domainAggregates(d *expr.Domain) []*sql.Aggregate {
	var out []*sql.Aggregate
	for _, n := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[n] {
			if slices.ContainsFunc(a.Args, func(p sql.FuncParam) bool { return ofDomain(p.Domain, d) }) {
				out = append(out, a)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *sql.Aggregate) int { return strings.Compare(a.Signature(), b.Signature()) })
	return out
}

// domainOperators are the operators taking d or d[], by signature.
func (e *Engine) domainOperators(d *expr.Domain) []*sql.Operator {
	var out []*sql.Operator
	for _, n := range sortedKeys(e.opers) {
		for _, o := range e.opers[n] {
			if o.Left != nil && ofDomain(o.Left.Domain, d) || ofDomain(o.Right.Domain, d) {
				out = append(out, o)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *sql.Operator) int { return strings.Compare(a.Signature(), b.Signature()) })
	return out
}

// paramsArrayOnly reports whether ps name d only as an array (d[]), so
// that what they declare depends on d's array type.
func paramsArrayOnly(ps []sql.FuncParam, d *expr.Domain) bool {
	return !slices.ContainsFunc(ps, func(p sql.FuncParam) bool { return p.Domain == d })
}

// operParams are o's argument types.
func operParams(o *sql.Operator) []sql.FuncParam {
	if o.Left == nil {
		return []sql.FuncParam{*o.Right}
	}
	return []sql.FuncParam{*o.Left, *o.Right}
}

// domainAggOpLines are the lines naming the aggregates and the operators
// taking d, as routineLines names routines: "function ag(d)" (PostgreSQL
// names an aggregate so) and "operator ===(integer,d)", each with
// whether it takes d only as an array.
func (e *Engine) domainAggOpLines(d *expr.Domain) (aggs, ops []dependentLine) {
	for _, a := range e.domainAggregates(d) {
		aggs = append(aggs, dependentLine{sig: a.Signature(), what: "function " + a.Signature(), array: paramsArrayOnly(a.Args, d)})
	}
	for _, o := range e.domainOperators(d) {
		ops = append(ops, dependentLine{sig: o.Signature(), what: "operator " + o.Signature(), array: paramsArrayOnly(operParams(o), d)})
	}
	return aggs, ops
}

// dependentLine is an object depending on a domain: its signature (the
// lines' order), how the lines name it, and whether it depends on the
// domain's array type.
type dependentLine struct {
	sig, what string
	array     bool
}

// domainRoutineLines are the routines, the aggregates and the operators
// taking d (or returning it), in the order the lines name them: routines
// and aggregates by signature, then the operators.
func (e *Engine) domainRoutineLines(d *expr.Domain) []dependentLine {
	var out []dependentLine
	for _, f := range e.domainRoutineObjs(d) {
		out = append(out, dependentLine{sig: f.Signature(), what: routineKind(nil, f.Procedure) + " " + f.Signature(), array: domainArrayOnly(f, d)})
	}
	aggs, ops := e.domainAggOpLines(d)
	out = append(out, aggs...)
	slices.SortStableFunc(out, func(a, b dependentLine) int { return strings.Compare(a.sig, b.sig) })
	return append(out, ops...)
}

// DomainKeysBefore maps the key under which a version that did not keep
// domains in aggregates' and operators' signatures stored each aggregate
// and operator declared over a domain (its domains printed as their base
// types) to its key now; the others are not in it. A file written by
// such a version is re-keyed from it when it is opened, so that a DROP or
// a rename finds what it changes.
func (e *Engine) DomainKeysBefore() map[string]string {
	out := map[string]string{}
	for _, n := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[n] {
			ts := make([]value.Type, len(a.Args))
			for i, p := range a.Args {
				ts[i] = p.Type
			}
			if old := sql.Signature(a.Name, ts); old != a.Signature() {
				out[old] = a.Signature()
			}
		}
	}
	for _, n := range sortedKeys(e.opers) {
		for _, o := range e.opers[n] {
			l := "NONE"
			if o.Left != nil {
				l = o.Left.Type.String()
			}
			name := o.Name
			if o.Schema != "" {
				name = o.Schema + "." + name
			}
			if old := "operator " + name + "(" + l + "," + o.Right.Type.String() + ")"; old != o.DepKey() {
				out[old] = o.DepKey()
			}
		}
	}
	return out
}
