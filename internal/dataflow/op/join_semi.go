package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// SemiJoin keeps an index of each input on the join key and a match count
// per left row (the right side's weight over the rows it matches, residual
// included); a semi-join (EXISTS, IN) outputs each left row with its own
// weight while its count is nonzero, an anti-join (NOT EXISTS) while it is
// zero. A left row with a NULL key never matches: an anti-join always
// outputs it. For NOT IN, whose NULLs differ, see NotInJoin.
type SemiJoin struct {
	c    *joinCore
	anti bool
	m    matches
}

var _ dataflow.Operator = (*SemiJoin)(nil)

// NewSemiJoin returns a semi-join, or an anti-join when anti is set; its
// inputs are the left and the right changes, in that order. spec.Project
// is ignored: the output rows are the left rows. The inputs' weights must
// stay nonnegative.
func NewSemiJoin(spec JoinSpec, anti bool) *SemiJoin {
	j := &SemiJoin{anti: anti, m: newMatches()}
	j.c = newJoinCore(spec, j.pair)
	return j
}

func (j *SemiJoin) pair(t term, l value.Row, wl int64, _ value.Row, wr int64) error {
	j.m.pair(l, wl, t != termLDr, t != termDlR, wr)
	return nil
}

// out is a left row's output weight given its weight and count.
func (j *SemiJoin) weight(w, m int64) int64 {
	if (m != 0) != j.anti {
		return w
	}
	return 0
}

// Step emits the left rows whose output weight changes and stages the
// indexes and counts.
func (j *SemiJoin) Step(in []zset.ZSet) (zset.ZSet, error) {
	j.c.begin()
	err := j.c.pairs(in[0], in[1])
	if err == nil {
		err = j.m.settle(in[0], func(row value.Row, wOld, mOld, wNew, mNew int64) error {
			if w := j.weight(wNew, mNew) - j.weight(wOld, mOld); w != 0 {
				j.c.out = append(j.c.out, zset.Entry{Row: row, W: w})
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
	j.m.abort()
	return nil, err
}

// Commit applies the staged changes to the private indexes and the counts.
func (j *SemiJoin) Commit() {
	j.c.commit()
	j.m.commit()
}

// Abort drops them.
func (j *SemiJoin) Abort() {
	j.c.abort()
	j.m.abort()
}

// Info describes the join.
func (j *SemiJoin) Info() dataflow.Info {
	kind := "SemiJoin"
	if j.anti {
		kind = "AntiJoin"
	}
	return dataflow.Info{Kind: kind, Detail: j.c.detail(), State: j.c.stateText() + "; match count per left row", Cost: j.c.cost()}
}

// State reports the private indexes and the match counts.
func (j *SemiJoin) State() dataflow.StateSize {
	s, st := j.c.state(), j.m.state()
	s.Rows += st.Rows
	s.Bytes += st.Bytes
	return s
}
