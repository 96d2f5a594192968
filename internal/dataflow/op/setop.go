package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// SetOp keeps a count per row of each of its two inputs (per
// representation: 1.5 and 1.50 apart, see Step), and
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
	return &SetOp{kind: kind, left: newIdentityCounts(), right: newIdentityCounts()}
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

// Step merges the two inputs' runs of equal rows (value.CompareRows) and
// emits, per run, the change of its multiplicity. The output shows the
// first representation (value.CompareRepr) that a row of the left input
// has, which every row of positive multiplicity has some of.
func (s *SetOp) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(s.out)
	l, r := in[0], in[1]
	i, j := 0, 0
	for i < len(l) || j < len(r) {
		var rep value.Row
		switch {
		case j == len(r) || i < len(l) && value.CompareRows(l[i].Row, r[j].Row) <= 0:
			rep = l[i].Row
		default:
			rep = r[j].Row
		}
		i2, j2 := runEnd(l, i, rep), runEnd(r, j, rep)
		oldRep, ol, newRep, nl := s.left.shown(rep, l[i:i2])
		_, or, _, nr := s.right.shown(rep, r[j:j2])
		if m := s.mult(ol, or); m > 0 {
			out = append(out, zset.Entry{Row: oldRep, W: -m})
		}
		if m := s.mult(nl, nr); m > 0 {
			out = append(out, zset.Entry{Row: newRep, W: m})
		}
		i, j = i2, j2
	}
	s.staged = [2]zset.ZSet{in[0], in[1]}
	s.out = zset.Consolidate(out)
	return s.out, nil
}

// runEnd returns the end of the run of rows of z from i that
// value.CompareRows holds equal to rep (i itself when there are none).
func runEnd(z zset.ZSet, i int, rep value.Row) int {
	for i < len(z) && value.CompareRows(z[i].Row, rep) == 0 {
		i++
	}
	return i
}

// Commit adds the staged inputs to the counts.
func (s *SetOp) Commit() {
	for i, c := range []*counts{&s.left, &s.right} {
		for _, e := range s.staged[i] {
			c.add(e.Row, e.W)
		}
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
