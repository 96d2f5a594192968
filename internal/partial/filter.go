package partial

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var _ Operator = (*Filter)(nil)

// Filter keeps no state. It maps each key's Fact by whether the predicate
// holds on the old and on the new row, as far as their known columns
// decide it (docs/partial-deltas.md, "Selection"): a row that passed and
// passes keeps its kind, a row that may or may not have passed becomes
// type-partial (a partial update that passes becomes an upsert, a true
// partial deletion becomes a safe one), a row that fails leaves.
type Filter struct {
	schema *delta.Schema
	pred   expr.Expr
	cols   []int
	buf    buffers
}

// NewFilter returns a filter of in's rows by pred, a boolean expression
// over in's columns that is not volatile.
func NewFilter(in *delta.Schema, pred expr.Expr) (*Filter, error) {
	if pred.Type().Kind != value.Bool {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "deltaview: filter of %s is of type %s, not boolean", in.Name, pred.Type())
	}
	if pred.Volatile() {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "deltaview: filter of %s is volatile: %s", in.Name, pred)
	}
	cols := expr.Columns(pred)
	for _, c := range cols {
		if c >= in.Arity() {
			return nil, pgerr.New(pgerr.Internal, "deltaview: filter of %s reads column #%d of %d", in.Name, c, in.Arity())
		}
	}
	return &Filter{schema: in, pred: pred, cols: cols}, nil
}

func (f *Filter) Schema() *delta.Schema { return f.schema }
func (f *Filter) Commit()               {}
func (f *Filter) Abort()                {}

func (f *Filter) Info() dataflow.Info {
	return dataflow.Info{Kind: "PartialFilter", Detail: f.pred.String(), State: "none", Cost: "O(change)"}
}

func (f *Filter) State() dataflow.StateSize { return dataflow.StateSize{} }

// pass evaluates the predicate on r when every column it reads is known.
func (f *Filter) pass(r value.Row, u delta.Cols) (tri, error) {
	if !known(f.cols, u) {
		return unknown, nil
	}
	v, err := f.pred.Eval(r)
	if err != nil {
		return unknown, err
	}
	if !v.IsNull() && v.Bool() {
		return yes, nil
	}
	return no, nil
}

func (f *Filter) Step(in []*delta.Implicit) (*delta.Implicit, error) {
	out := f.buf.reset(f.schema)
	for _, x := range f.buf.factsOf(in[0]) {
		g, err := f.rule(x)
		if err != nil {
			return nil, err
		}
		if err := out.Add(g); err != nil {
			return nil, err
		}
	}
	// The facts come in key order and the key passes through: out is
	// sorted already.
	return out, nil
}

// rule is the selection rule for one key.
func (f *Filter) rule(x delta.Fact) (delta.Fact, error) {
	x.Fill()
	g := delta.Fact{Key: x.Key, Before: x.Before}
	if x.Before == delta.Present {
		p, err := f.pass(x.Old, x.OldUnknown)
		if err != nil {
			return g, err
		}
		switch p {
		case yes:
			g.Old, g.OldUnknown = x.Old, x.OldUnknown
		case no:
			g.Before = delta.Absent
		default:
			g.Before = delta.Maybe
		}
	}
	if x.After {
		p, err := f.pass(x.New, x.NewUnknown)
		if err != nil {
			return g, err
		}
		switch p {
		case yes:
			g.After, g.New, g.NewUnknown = true, x.New, x.NewUnknown
		case unknown:
			e := pgerr.New(pgerr.FeatureNotSupported, "deltaview: %s key %s: the filter %s reads a column the change leaves unknown",
				f.schema.Name, x.Key, f.pred)
			e.Hint = "complete the change from a keyed copy of the relation (normalisation)"
			return g, e
		}
	}
	return g, nil
}
