package partial

import (
	"strings"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var _ Operator = (*Project)(nil)

// Project keeps no state, unless an output column is computed from two or
// more of the input's non-key columns: then it keeps, per key, the values
// of those columns. It computes each output column of the old and the new
// row where the input columns it reads are known, and leaves it unknown
// (unchanged) otherwise; the key passes through, so existence is unchanged
// (docs/partial-deltas.md, "Projection"). A change that touches only
// columns projected away leaves nothing.
//
// An unknown column kept its value, so a column computed from it alone
// kept its value too. One computed from it and a known column may have
// changed (a partial update of the root that sets b and leaves a unknown;
// a dimension's change under a + d.m): no kind can say "changed to a value
// nobody knows", so the projection completes the unknown inputs from the
// values it keeps. That costs the read columns per view row, where
// normalising the view would keep a copy of every table it reads.
type Project struct {
	in, out *delta.Schema
	exprs   []expr.Expr
	cols    [][]int
	buf     buffers
	rows    arena // the output's rows
	// The unknown columns of the last row projected and of its image: a
	// step's rows mostly share them, and a Cols is immutable.
	lastIn, lastOut delta.Cols

	keep []int // input columns kept per key, ascending; none: stateless
	// kept holds per key a row of the key's values then those of keep;
	// staged are the step's changes of it (row nil: the key leaves).
	kept   delta.Index[value.Row]
	staged []keptChange
}

type keptChange struct {
	key, row value.Row // row: the values of keep, a row of the step; nil: the key leaves
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
	var keep delta.Cols
	for _, e := range exprs {
		if e.Volatile() {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "deltaview: projection %s computes a volatile expression: %s", name, e)
		}
		cols := expr.Columns(e)
		var vals []int // the non-key columns read: the ones that may be unknown
		for _, c := range cols {
			if c >= in.Arity() {
				return nil, pgerr.New(pgerr.Internal, "deltaview: projection %s reads column #%d of %d", name, c, in.Arity())
			}
			if !in.IsKey(c) {
				vals = append(vals, c)
			}
		}
		if len(vals) > 1 {
			for _, c := range vals {
				keep = keep.With(c)
			}
		}
		p.cols = append(p.cols, cols)
	}
	p.keep = keep.Slice()
	nk := len(in.Key)
	p.kept.KeyOf = func(r value.Row) value.Row { return r[:nk:nk] }
	out, err := delta.NewSchema(name, names, key)
	if err != nil {
		return nil, err
	}
	p.out = out
	return p, nil
}

func (p *Project) Schema() *delta.Schema { return p.out }

func (p *Project) Commit() {
	nk := len(p.in.Key)
	for _, c := range p.staged {
		cur, ok := p.kept.Get(c.key)
		switch {
		case c.row == nil:
			if ok {
				p.kept.Delete(c.key)
			}
		case ok:
			copy(cur[nk:], c.row) // the step's rows that read it are copies
		default:
			r := make(value.Row, nk+len(c.row))
			copy(r, c.key)
			copy(r[nk:], c.row)
			p.kept.Set(r[:nk:nk], r)
		}
	}
	p.Abort()
}

func (p *Project) Abort() {
	clear(p.staged)
	p.staged = p.staged[:0]
	if cap(p.staged) > spare {
		p.staged = nil
	}
}

func (p *Project) Info() dataflow.Info {
	d := ""
	for i, e := range p.exprs {
		if i > 0 {
			d += ", "
		}
		d += e.String()
	}
	state := "none"
	if len(p.keep) > 0 {
		names := make([]string, len(p.keep))
		for i, c := range p.keep {
			names[i] = p.in.Columns[c]
		}
		state = "per row " + strings.Join(names, ", ") + " (read together by a computed column)"
	}
	return dataflow.Info{Kind: "PartialProject", Detail: d, State: state, Cost: "O(change)"}
}

func (p *Project) State() dataflow.StateSize {
	var s dataflow.StateSize
	p.kept.All(func(_ value.Row, r value.Row) bool {
		s.Rows++
		s.Bytes += delta.IndexEntryBytes + dataflow.RowBytes(r)
		return true
	})
	return s
}

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

// complete fills the kept columns that x leaves unknown, old and new, from
// the values kept for its key (an unknown new column kept its value), and
// stages the key's new values.
func (p *Project) complete(x *delta.Fact) error {
	prev, ok := p.kept.Get(x.Key)
	if ok {
		prev = prev[len(p.in.Key):]
	}
	if x.Before == delta.Present {
		var err error
		if x.Old, x.OldUnknown, err = p.fill(x.Key, x.Old, x.OldUnknown, prev, ok); err != nil {
			return err
		}
	}
	if !x.After {
		if ok {
			p.staged = append(p.staged, keptChange{key: x.Key})
		}
		return nil
	}
	var err error
	if x.New, x.NewUnknown, err = p.fill(x.Key, x.New, x.NewUnknown, prev, ok); err != nil {
		return err
	}
	r := p.rows.row(len(p.keep))
	for i, c := range p.keep {
		r[i] = x.New[c]
	}
	p.staged = append(p.staged, keptChange{key: x.Key, row: r})
	return nil
}

// fill returns row with its unknown kept columns set from prev, copying
// row first.
func (p *Project) fill(key, row value.Row, u delta.Cols, prev value.Row, ok bool) (value.Row, delta.Cols, error) {
	copied := false
	for i, c := range p.keep {
		if !u.Has(c) {
			continue
		}
		if !ok {
			// The key existed in the input (a column is unknown only
			// in a change of an existing row), so its values are here.
			return nil, nil, pgerr.New(delta.CodeNoRow, "deltaview: projection %s: key %s changes with %s unknown, but the projection holds no row of it", p.out.Name, key, p.in.Columns[c])
		}
		if !copied {
			row = append(value.Row(nil), row...)
			copied = true
		}
		row[c] = prev[i]
		u = u.Without(c)
	}
	return row, u, nil
}

func (p *Project) Step(in []*delta.Implicit) (*delta.Implicit, error) {
	p.Abort()
	out := p.buf.reset(p.out)
	p.rows.reset()
	for _, x := range p.buf.factsOf(in[0]) {
		x.Fill()
		if len(p.keep) > 0 {
			if err := p.complete(&x); err != nil {
				return nil, err
			}
		}
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
