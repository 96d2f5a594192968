package op

import (
	"bytes"
	"slices"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// NotInJoin keeps an index of each input on the compared column and the
// right side's total weight and weight of NULLs; it outputs the left rows x
// for which x NOT IN (right) is TRUE: the right side is empty (even for a
// NULL x), or x is not NULL, the right side holds no NULL and no value
// equal to x. When the right side becomes empty or non-empty, or gains its
// first NULL or loses its last, every left row's answer may change: that
// step costs O(left rows).
type NotInJoin struct {
	c              *joinCore
	total, nulls   int64 // the right side's weight, and its NULLs'
	dTotal, dNulls int64 // staged changes
	dm             []keyedSum
	buf            []byte
}

// keyedSum is a right key's weight change in the step.
type keyedSum struct {
	off, end int // in c.arenaR
	dm       int64
}

var _ dataflow.Operator = (*NotInJoin)(nil)

// NewNotInJoin returns the join for left.x NOT IN (SELECT y FROM right):
// spec's keys are the single expressions x and y, of the same type; there is
// no residual (the subquery is uncorrelated) and spec.Project is ignored.
// Its inputs are the left and the right changes, in that order; the right
// side's weights must stay nonnegative. Each right change costs O(rows of
// its value on the right) unless it flips the whole answer; projecting the
// right side to y keeps that to one.
func NewNotInJoin(spec JoinSpec) *NotInJoin {
	if spec.Residual != nil {
		panic("op: NOT IN with a residual")
	}
	j := &NotInJoin{}
	c := &joinCore{spec: spec}
	c.left, c.ownL = sideIndex(spec.Left, false) // NULL x is output while the right side is empty
	c.right, c.ownR = sideIndex(spec.Right, true)
	if len(c.left.Spec().Key) != 1 || len(c.right.Spec().Key) != 1 {
		panic("op: NOT IN compares one column")
	}
	if c.left.Len() != 0 || c.right.Len() != 0 {
		panic("op: a join over a non-empty shared arrangement would miss its initial contents")
	}
	j.c = c
	return j
}

// notInClass sorts the right side's states by how they answer: empty (every
// row passes), holding a NULL (none passes) or neither (rows without a
// match pass).
func notInClass(total, nulls int64) int {
	switch {
	case total == 0:
		return 0
	case nulls != 0:
		return 1
	}
	return 2
}

func notInKeep(class int, null bool, m int64) bool {
	switch class {
	case 0:
		return true
	case 1:
		return false
	}
	return !null && m == 0
}

// counts returns the right side's weight on key before and after the step.
func (j *NotInJoin) counts(key []byte) (mOld, mNew int64) {
	j.c.right.LookupEncoded(key, func(_ value.Row, w int64) bool {
		mOld += w
		return true
	})
	arena := j.c.arenaR
	i, ok := slices.BinarySearchFunc(j.dm, key, func(s keyedSum, k []byte) int {
		return bytes.Compare(arena[s.off:s.end], k)
	})
	mNew = mOld
	if ok {
		mNew += j.dm[i].dm
	}
	return mOld, mNew
}

// Step emits the left rows whose answer changes, and the changed left rows
// that pass, and stages the indexes and the right side's weights.
func (j *NotInJoin) Step(in []zset.ZSet) (zset.ZSet, error) {
	c := j.c
	c.begin()
	var err error
	if c.arenaR, c.dr, err = encode(c.right, in[1], c.arenaR, c.dr); err != nil {
		c.fail()
		return nil, err
	}
	j.dTotal, j.dNulls = 0, 0
	for _, e := range in[1] {
		j.dTotal += e.W
		j.dNulls += e.W
	}
	slices.SortFunc(c.dr, func(a, b keyed) int {
		return bytes.Compare(c.arenaR[a.off:a.end], c.arenaR[b.off:b.end])
	})
	j.dm = j.dm[:0]
	for _, k := range c.dr {
		j.dNulls -= k.w
		if n := len(j.dm); n > 0 && bytes.Equal(c.arenaR[j.dm[n-1].off:j.dm[n-1].end], c.arenaR[k.off:k.end]) {
			j.dm[n-1].dm += k.w
		} else {
			j.dm = append(j.dm, keyedSum{off: k.off, end: k.end, dm: k.w})
		}
	}
	oldC := notInClass(j.total, j.nulls)
	newC := notInClass(j.total+j.dTotal, j.nulls+j.dNulls)

	// The held left rows whose answer changes: all of them when the class
	// changes, else those of the keys whose count crosses zero.
	flip := func(l value.Row, w int64, null bool, mOld, mNew int64) {
		ko, kn := notInKeep(oldC, null, mOld), notInKeep(newC, null, mNew)
		if ko != kn {
			if kn {
				c.out = append(c.out, zset.Entry{Row: l, W: w})
			} else {
				c.out = append(c.out, zset.Entry{Row: l, W: -w})
			}
		}
	}
	switch {
	case oldC != newC:
		c.left.Scan(nil, false, func(l value.Row, w int64) bool {
			var null bool
			j.buf, null, err = c.left.AppendKey(j.buf[:0], l)
			if err != nil {
				return false
			}
			mOld, mNew := j.counts(j.buf)
			flip(l, w, null, mOld, mNew)
			return true
		})
	case newC == 2:
		for _, s := range j.dm {
			key := c.arenaR[s.off:s.end]
			mOld, mNew := j.counts(key)
			if (mOld == 0) == (mNew == 0) {
				continue
			}
			c.left.LookupEncoded(key, func(l value.Row, w int64) bool {
				flip(l, w, false, mOld, mNew)
				return true
			})
		}
	}
	// The changed left rows, against the right side after the step.
	for _, e := range in[0] {
		if err != nil {
			break
		}
		var null bool
		j.buf, null, err = c.left.AppendKey(j.buf[:0], e.Row)
		if err != nil {
			break
		}
		var mNew int64
		if newC == 2 && !null {
			_, mNew = j.counts(j.buf)
		}
		if notInKeep(newC, null, mNew) {
			c.out = append(c.out, e)
		}
	}
	if err != nil {
		c.fail()
		return nil, err
	}
	return c.finish(in[0], in[1])
}

// Commit applies the staged changes.
func (j *NotInJoin) Commit() {
	j.c.commit()
	j.total += j.dTotal
	j.nulls += j.dNulls
	j.dTotal, j.dNulls = 0, 0
}

// Abort drops them.
func (j *NotInJoin) Abort() {
	j.c.abort()
	j.dTotal, j.dNulls = 0, 0
}

// Info describes the join.
func (j *NotInJoin) Info() dataflow.Info {
	return dataflow.Info{
		Kind:   "NotInJoin",
		Detail: j.c.detail(),
		State:  j.c.stateText() + "; the right side's row and NULL counts",
		Cost:   "O(change × matches); O(left rows) when the right side turns empty or gains its first NULL, or back",
	}
}

// State reports the private indexes.
func (j *NotInJoin) State() dataflow.StateSize { return j.c.state() }
