package partial

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var _ Operator = (*Project)(nil)

// Project keeps no state. It computes each output column of the old and
// the new row where the input columns it reads are known, and leaves it
// unknown (unchanged) otherwise; the key passes through, so existence is
// unchanged (docs/partial-deltas.md, "Projection"). A change that touches
// only columns projected away leaves nothing.
type Project struct {
	in, out *delta.Schema
	exprs   []expr.Expr
	cols    [][]int
	buf     buffers
	rows    arena // the output's rows
	// The unknown columns of the last row projected and of its image: a
	// step's rows mostly share them, and a Cols is immutable.
	lastIn, lastOut delta.Cols
}

// NewProject returns the projection of in onto exprs, named name with
// columns names. Every key column of in must appear as a plain column
// reference; those outputs form the output's key.
func NewProject(in *delta.Schema, name string, names []string, exprs []expr.Expr) (*Project, error) {
	if len(names) != len(exprs) {
		return nil, pgerr.New(pgerr.Internal, "deltaview: projection %s has %d names for %d expressions", name, len(names), len(exprs))
	}
	p := &Project{in: in, exprs: exprs}
	var key []int
	for _, k := range in.Key {
		found := -1
		for i, e := range exprs {
			if c, ok := e.(*expr.Col); ok && c.Idx == k {
				found = i
				break
			}
		}
		if found < 0 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "deltaview: projection %s drops key column %s of %s; a view maintained from partial changes keeps its key", name, in.Columns[k], in.Name)
		}
		key = append(key, found)
	}
	for _, e := range exprs {
		if e.Volatile() {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "deltaview: projection %s computes a volatile expression: %s", name, e)
		}
		cols := expr.Columns(e)
		for _, c := range cols {
			if c >= in.Arity() {
				return nil, pgerr.New(pgerr.Internal, "deltaview: projection %s reads column #%d of %d", name, c, in.Arity())
			}
		}
		p.cols = append(p.cols, cols)
	}
	out, err := delta.NewSchema(name, names, key)
	if err != nil {
		return nil, err
	}
	p.out = out
	return p, nil
}

func (p *Project) Schema() *delta.Schema { return p.out }
func (p *Project) Commit()               {}
func (p *Project) Abort()                {}

func (p *Project) Info() dataflow.Info {
	d := ""
	for i, e := range p.exprs {
		if i > 0 {
			d += ", "
		}
		d += e.String()
	}
	return dataflow.Info{Kind: "PartialProject", Detail: d, State: "none", Cost: "O(change)"}
}

func (p *Project) State() dataflow.StateSize { return dataflow.StateSize{} }

func (p *Project) row(out, r value.Row, u delta.Cols) (value.Row, delta.Cols, error) {
	if !u.Equal(p.lastIn) {
		var ou delta.Cols
		for i := range p.exprs {
			if !known(p.cols[i], u) {
				ou = ou.With(i)
			}
		}
		p.lastIn, p.lastOut = u, ou
	}
	ou := p.lastOut
	for i, e := range p.exprs {
		out[i] = value.Null
		if ou.Has(i) {
			continue
		}
		v, err := e.Eval(r)
		if err != nil {
			return nil, nil, err
		}
		out[i] = v
	}
	return out, ou, nil
}

func (p *Project) Step(in []*delta.Implicit) (*delta.Implicit, error) {
	out := p.buf.reset(p.out)
	p.rows.reset()
	for _, x := range p.buf.factsOf(in[0]) {
		x.Fill()
		g := delta.Fact{Key: x.Key, Before: x.Before, After: x.After}
		w, n := len(p.exprs), 0
		if x.Before == delta.Present {
			n += w
		}
		if x.After {
			n += w
		}
		rows := p.rows.row(n)
		var err error
		if x.Before == delta.Present {
			if g.Old, g.OldUnknown, err = p.row(rows[:w:w], x.Old, x.OldUnknown); err != nil {
				return nil, err
			}
			rows = rows[w:]
		}
		if x.After {
			if g.New, g.NewUnknown, err = p.row(rows, x.New, x.NewUnknown); err != nil {
				return nil, err
			}
		}
		if err := out.Add(g); err != nil {
			return nil, err
		}
	}
	// The facts come in key order and the key passes through: out is
	// sorted already.
	return out, nil
}
