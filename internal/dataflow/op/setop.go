package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// SetOp keeps a count per distinct row of each of its two inputs, and
// outputs each row with the multiplicity INTERSECT [ALL] or EXCEPT [ALL]
// gives it from the two counts: for a row touched by a step it emits the
// difference between the multiplicity after and before.
type SetOp struct {
	kind        SetOpKind
	left, right counts
	staged      [2]zset.ZSet
	out         zset.ZSet
}

// SetOpKind says how a SetOp combines counts.
type SetOpKind int

// Set operations: the output multiplicity of a row counted l times on the
// left and r times on the right.
const (
	Intersect    SetOpKind = iota // 1 if l > 0 and r > 0
	IntersectAll                  // min(l, r)
	Except                        // 1 if l > 0 and r = 0
	ExceptAll                     // max(l - r, 0)
)

var setOpNames = [...]string{"Intersect", "IntersectAll", "Except", "ExceptAll"}

var _ dataflow.Operator = (*SetOp)(nil)

// NewSetOp returns an empty set operation.
func NewSetOp(kind SetOpKind) *SetOp {
	return &SetOp{kind: kind, left: newCounts(), right: newCounts()}
}

func (s *SetOp) mult(l, r int64) int64 {
	switch s.kind {
	case Intersect:
		if l > 0 && r > 0 {
			return 1
		}
	case IntersectAll:
		return max(min(l, r), 0)
	case Except:
		if l > 0 && r <= 0 {
			return 1
		}
	case ExceptAll:
		return max(l-max(r, 0), 0)
	}
	return 0
}

// Step merges the two inputs' groups of equal rows and emits, per row, the
// change of its multiplicity.
func (s *SetOp) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(s.out)
	l, r := groups(in[0]), groups(in[1])
	emit := func(rep value.Row, dl, dr int64) {
		if row, _, ok := s.left.lookup(rep); ok {
			rep = row
		} else if row, _, ok := s.right.lookup(rep); ok {
			rep = row
		}
		ol, or := s.left.get(rep), s.right.get(rep)
		if d := s.mult(ol+dl, or+dr) - s.mult(ol, or); d != 0 {
			out = append(out, zset.Entry{Row: rep, W: d})
		}
	}
	i, j := 0, 0
	for i < len(l) || j < len(r) {
		switch {
		case j == len(r) || i < len(l) && value.CompareRows(l[i].Row, r[j].Row) < 0:
			emit(l[i].Row, l[i].W, 0)
			i++
		case i == len(l) || value.CompareRows(l[i].Row, r[j].Row) > 0:
			emit(r[j].Row, 0, r[j].W)
			j++
		default:
			emit(l[i].Row, l[i].W, r[j].W)
			i++
			j++
		}
	}
	s.staged = [2]zset.ZSet{in[0], in[1]}
	s.out = zset.Consolidate(out)
	return s.out, nil
}

// groups returns one entry per run of rows equal under value.CompareRows,
// with the run's total weight.
func groups(z zset.ZSet) zset.ZSet {
	var out zset.ZSet
	forGroups(z, func(rep value.Row, w int64) {
		if w != 0 {
			out = append(out, zset.Entry{Row: rep, W: w})
		}
	})
	return out
}

// Commit adds the staged inputs to the counts.
func (s *SetOp) Commit() {
	for i, c := range []*counts{&s.left, &s.right} {
		forGroups(s.staged[i], func(rep value.Row, w int64) {
			if w != 0 {
				c.add(rep, w)
			}
		})
		c.compact()
	}
	s.staged = [2]zset.ZSet{}
}

// Abort drops the staged inputs.
func (s *SetOp) Abort() { s.staged = [2]zset.ZSet{} }

// Info describes the set operation.
func (s *SetOp) Info() dataflow.Info {
	return dataflow.Info{Kind: setOpNames[s.kind], State: "count per distinct row of each input", Cost: "O(change)"}
}

// State reports the distinct rows counted on both sides.
func (s *SetOp) State() dataflow.StateSize {
	a, b := s.left.state(), s.right.state()
	return dataflow.StateSize{Rows: a.Rows + b.Rows, Bytes: a.Bytes + b.Bytes}
}

// forGroups calls fn once per run of rows of z that value.CompareRows
// holds equal, with the run's first row and its total weight.
func forGroups(z zset.ZSet, fn func(rep value.Row, w int64)) {
	for i := 0; i < len(z); {
		w, j := z[i].W, i+1
		for j < len(z) && value.CompareRows(z[j].Row, z[i].Row) == 0 {
			w += z[j].W
			j++
		}
		fn(z[i].Row, w)
		i = j
	}
}
