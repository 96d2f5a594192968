package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// OuterJoin keeps an index of each input on the join key and, for each row
// of a preserved side, its match count (the other side's weight over the
// rows it matches, residual included); it emits the inner join's delta plus
// each preserved row NULL-extended exactly while its count is zero, so the
// first match arriving retracts the NULL-extended row and the last match
// leaving asserts it again. Rows with a NULL key never match.
type OuterJoin struct {
	c           *joinCore
	kind        OuterKind
	left, right *matches // nil for a side not preserved
}

// OuterKind says which sides an outer join preserves.
type OuterKind uint8

// The outer joins.
const (
	LeftOuter  OuterKind = 1 << iota // LEFT JOIN: every left row
	RightOuter                       // RIGHT JOIN: every right row
	FullOuter  = LeftOuter | RightOuter
)

func (k OuterKind) String() string {
	switch k {
	case LeftOuter:
		return "left"
	case RightOuter:
		return "right"
	}
	return "full"
}

var _ dataflow.Operator = (*OuterJoin)(nil)

// NewOuterJoin returns an outer join preserving the sides kind names; its
// inputs are the left and the right changes, in that order. The inputs'
// weights must stay nonnegative (as a table's do).
func NewOuterJoin(kind OuterKind, spec JoinSpec) *OuterJoin {
	if kind&FullOuter == 0 || kind&^FullOuter != 0 {
		panic("op: bad outer join kind")
	}
	j := &OuterJoin{kind: kind}
	j.c = newJoinCore(spec, j.pair)
	j.c.emits = true
	if kind&LeftOuter != 0 {
		m := newMatches()
		j.left = &m
	}
	if kind&RightOuter != 0 {
		m := newMatches()
		j.right = &m
	}
	return j
}

func (j *OuterJoin) pair(t term, l value.Row, wl int64, r value.Row, wr int64) error {
	if j.left != nil {
		j.left.pair(l, wl, t != termLDr, t != termDlR, wr)
	}
	if j.right != nil {
		j.right.pair(r, wr, t != termDlR, t != termLDr, wl)
	}
	return j.c.emitCat(wl * wr)
}

// unmatched is the weight of s's NULL-extended row: its weight while its
// count is zero.
func unmatched(w, m int64) int64 {
	if m == 0 {
		return w
	}
	return 0
}

// Step emits the inner join's delta and the changes of the NULL-extended
// rows, consolidated, and stages the indexes and counts.
func (j *OuterJoin) Step(in []zset.ZSet) (zset.ZSet, error) {
	j.c.begin()
	err := j.c.pairs(in[0], in[1])
	if err == nil && j.left != nil {
		err = j.left.settle(in[0], func(row value.Row, wOld, mOld, wNew, mNew int64) error {
			if w := unmatched(wNew, mNew) - unmatched(wOld, mOld); w != 0 {
				return j.c.emitLeftNull(row, w)
			}
			return nil
		})
	}
	if err == nil && j.right != nil {
		err = j.right.settle(in[1], func(row value.Row, wOld, mOld, wNew, mNew int64) error {
			if w := unmatched(wNew, mNew) - unmatched(wOld, mOld); w != 0 {
				return j.c.emitRightNull(row, w)
			}
			return nil
		})
	}
	if err == nil {
		var out zset.ZSet
		if out, err = j.c.finish(in[0], in[1]); err == nil {
			return out, nil
		}
	} else {
		j.c.fail()
	}
	j.abortMatches()
	return nil, err
}

func (j *OuterJoin) abortMatches() {
	if j.left != nil {
		j.left.abort()
	}
	if j.right != nil {
		j.right.abort()
	}
}

// Commit applies the staged changes to the private indexes and the counts.
func (j *OuterJoin) Commit() {
	j.c.commit()
	if j.left != nil {
		j.left.commit()
	}
	if j.right != nil {
		j.right.commit()
	}
}

// Abort drops them.
func (j *OuterJoin) Abort() {
	j.c.abort()
	j.abortMatches()
}

// Info describes the join.
func (j *OuterJoin) Info() dataflow.Info {
	st := j.c.stateText()
	switch j.kind {
	case LeftOuter:
		st += "; match count per left row"
	case RightOuter:
		st += "; match count per right row"
	default:
		st += "; match count per left row and per right row"
	}
	return dataflow.Info{Kind: "OuterJoin", Detail: j.kind.String() + " " + j.c.detail(), State: st, Cost: j.c.cost()}
}

// State reports the private indexes and the match counts.
func (j *OuterJoin) State() dataflow.StateSize {
	s := j.c.state()
	for _, m := range []*matches{j.left, j.right} {
		if m != nil {
			st := m.state()
			s.Rows += st.Rows
			s.Bytes += st.Bytes
		}
	}
	return s
}

// SetGuard makes the join count its pairs against g.
func (j *OuterJoin) SetGuard(g *dataflow.Guard) { j.c.guard = g }

var _ dataflow.Guarded = (*OuterJoin)(nil)
