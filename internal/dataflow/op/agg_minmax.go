package op

import (
	"slices"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// minMaxAcc is MIN or MAX: per group, the count m of the values present
// (non-NULL, passing FILTER) and a reserve of at most k distinct values with
// their multiplicities, best first. Values equal but printed differently
// (1.5 and 1.50, '1 day' and '24:00:00') are distinct here, the first
// representation (value.CompareRepr) first, so that of a group's best
// values the aggregate is the one the from-scratch evaluation picks, and
// a representation no row has any more is never shown.
//
// Invariant: every value of the group that is at least as good as the
// reserve's worst entry is in the reserve, with its exact multiplicity. So
// the reserve is the group's best-j values for some j ≤ k; when it is not
// empty its first entry is the aggregate; and when the sum of its
// multiplicities equals m it holds the whole group.
//
// Each change keeps the invariant:
//   - a retraction of a value no better than the worst entry changes an
//     entry's multiplicity (it must be there), dropping the entry at zero;
//     a retraction of a worse value changes nothing;
//   - an assertion of a value already held raises its multiplicity; of a
//     value better than the worst entry inserts it, and if the reserve then
//     holds k+1 entries drops the worst (the new worst is better, so the
//     invariant still holds); of a worse value appends it only when the
//     reserve holds the whole group and has room, and is otherwise left out
//     (the invariant speaks only of values as good as the worst entry).
//
// When a step leaves the reserve empty while m > 0, the group's best k
// values are read back from the index (the committed input plus this
// step's changes): a refill, counted. The index is the stored relation's
// shared index by (group, argument) when the input is that relation's
// rows (Aggregate.Base), else the group's valueSet for an integer-ordered
// argument, an arrangement of the input otherwise. Work per change is a binary search
// and a move of at most k entries; state is O(k) per group.
type minMaxAcc struct {
	max bool
	k   int
	m   int64
	res []reserveEntry

	c          *stepCtx
	staged     bool
	sm         int64
	soff, slen int // staged reserve: c.res[soff : soff+slen]
}

// reserveEntry is one distinct value and its multiplicity.
type reserveEntry struct {
	v value.Value
	n int64
}

func newMinMaxAcc(s *aggSpec) accum {
	return &minMaxAcc{max: s.Func == plan.AggMax, k: s.Reserve}
}

// cmp orders values best first, and equal values by representation.
func (a *minMaxAcc) cmp(x, y value.Value) int {
	if c := a.cmpValue(x, y); c != 0 {
		return c
	}
	return value.CompareRepr(x, y)
}

// cmpValue orders values best first, equal values tying.
func (a *minMaxAcc) cmpValue(x, y value.Value) int {
	if a.max {
		return value.Compare(y, x)
	}
	return value.Compare(x, y)
}

// worse reports whether x orders after y: by their Int()s when both are of
// one integer-ordered kind, the order value.Compare gives them, without
// its dispatch on the kind.
func (a *minMaxAcc) worse(x, y value.Value) bool {
	if k := x.Kind(); k == y.Kind() && value.IntOrdered(k) {
		if a.max {
			return x.Int() < y.Int()
		}
		return x.Int() > y.Int()
	}
	return a.cmp(x, y) > 0
}

func (a *minMaxAcc) stage(c *stepCtx, ch []aggChange) (value.Value, error) {
	a.c = c
	// The changes, best first, NULLs dropped; those that cannot reach the
	// reserve (all) after them, unsorted, counted in beyond and kept for
	// a refill.
	ch = slices.DeleteFunc(ch, func(x aggChange) bool { return x.vals[0].IsNull() })
	all := ch
	var beyond int64
	if minMaxPrefilter && a.beyondIsInert(ch) {
		ch, beyond = a.partitionBeyond(ch)
	}
	a.sortChanges(ch)
	off := len(c.res)
	c.res = append(c.res, a.res...)
	l := len(a.res)
	var held int64 // the reserve's multiplicities
	for _, e := range a.res {
		held += e.n
	}
	m := a.m + beyond
	for i := 0; i < len(ch); {
		v, w := ch[i].vals[0], ch[i].w
		j := i + 1
		for ; j < len(ch) && a.cmp(ch[j].vals[0], v) == 0; j++ {
			w += ch[j].w
		}
		i = j
		if w == 0 {
			continue
		}
		res := c.res[off : off+l]
		pos, found := slices.BinarySearchFunc(res, v, func(e reserveEntry, v value.Value) int { return a.cmp(e.v, v) })
		covered := l > 0 && pos < l // v is no worse than the worst entry
		switch {
		case found:
			res[pos].n += w
			held += w
			if res[pos].n < 0 {
				return value.Null, errNegativeCount()
			}
			if res[pos].n == 0 {
				c.res = slices.Delete(c.res, off+pos, off+pos+1)
				l--
			}
		case w < 0 && covered:
			return value.Null, pgerr.New(pgerr.Internal, "aggregate: retracting %s, which the group does not hold", v)
		case w < 0:
			// Beyond the reserve.
		case covered || (held == m && l < a.k):
			c.res = slices.Insert(c.res, off+pos, reserveEntry{v: v, n: w})
			l++
			held += w
			if l > a.k {
				held -= c.res[off+l-1].n
				c.res = slices.Delete(c.res, off+l-1, off+l)
				l--
			}
		}
		m += w
	}
	if m < 0 {
		return value.Null, errNegativeCount()
	}
	if l == 0 && m > 0 {
		if len(ch) < len(all) {
			// The refill merges every change of the step into the
			// index's values.
			ch = all
			a.sortChanges(ch)
		}
		var err error
		if l, err = a.refill(c, off, ch); err != nil {
			return value.Null, err
		}
		if l == 0 {
			return value.Null, pgerr.New(pgerr.Internal, "aggregate: the index holds none of the group's %d values", m)
		}
		c.refills++
	}
	a.staged, a.sm, a.soff, a.slen = true, m, off, l
	if m == 0 {
		return value.Null, nil
	}
	return c.res[off].v, nil
}

// minMaxPrefilter lets a step set aside the changes that cannot reach
// the reserve before it sorts them; a test turns it off to compare.
var minMaxPrefilter = true

// beyondIsInert reports whether a step's changes ch whose values are worse
// than the reserve's worst entry leave the reserve as it is, so that only
// the count m needs them. Such a change reaches the reserve in stage only
// by being appended when the reserve holds the whole group (held == m)
// with room (l < k); otherwise it is a retraction beyond the reserve or
// an assertion left out. Two cases rule that branch out for the whole
// step:
//   - a full reserve and only assertions: the reserve never loses an
//     entry, so it stays full;
//   - fewer retracted rows in the step than values beyond the reserve
//     (m - held): held and m move together for a change of the reserve,
//     an assertion left out or a worst entry pushed out only widens
//     m - held, and only a retraction beyond the reserve narrows it, by
//     its weight, so m - held stays above 0.
//
// The reserve's worst entry only gets better during the step (it is
// pushed out, retracted, or, under those cases, never followed by an
// appended value), so a value worse than it at the start stays worse.
// In a big step of a big group (a batch of 10,000 changes over groups of
// a thousand rows, a reserve of a few values) nearly every change is such
// a value, and the sort and the reserve's searches skip them.
func (a *minMaxAcc) beyondIsInert(ch []aggChange) bool {
	l := len(a.res)
	if l == 0 || len(ch) < 2 {
		return false
	}
	var held, retracted int64
	for _, e := range a.res {
		held += e.n
	}
	assertions := true
	for _, x := range ch {
		if x.w < 0 {
			assertions = false
			retracted -= x.w
		}
	}
	return (assertions && l == a.k) || retracted < a.m-held
}

// partitionBeyond moves the changes of ch whose values are worse than
// the reserve's worst entry after the others, and returns the others and
// the sum of the weights of those moved.
func (a *minMaxAcc) partitionBeyond(ch []aggChange) ([]aggChange, int64) {
	worst := a.res[len(a.res)-1].v
	var beyond int64
	n := 0
	for i := range ch {
		if a.worse(ch[i].vals[0], worst) {
			beyond += ch[i].w
			continue
		}
		ch[n], ch[i] = ch[i], ch[n]
		n++
	}
	return ch[:n], beyond
}

// refill appends to c.res the best k values of the group from the index
// and the step's changes ch (sorted best first), and returns how many.
func (a *minMaxAcc) refill(c *stepCtx, off int, ch []aggChange) (int, error) {
	spec := c.spec
	emit := func(v value.Value, n int64) bool {
		if n > 0 {
			c.res = append(c.res, reserveEntry{v: v, n: n})
		}
		return len(c.res)-off < a.k
	}
	j := 0
	// run holds the committed values equal to the last one read (the
	// index orders equal values by row, not by representation).
	run := c.run[:0]
	defer func() { c.run = clearAll(run) }()
	// flush emits the run, after the changes better than it, with the
	// changes equal to it folded in, representation by representation.
	flush := func() bool {
		v := run[0].v
		for ; j < len(ch) && a.cmpValue(ch[j].vals[0], v) < 0; j++ {
			if !emit(ch[j].vals[0], sumEqual(a, ch, &j)) {
				return false
			}
		}
		for ; j < len(ch) && a.cmpValue(ch[j].vals[0], v) == 0; j++ {
			run = append(run, reserveEntry{v: ch[j].vals[0], n: ch[j].w})
		}
		slices.SortStableFunc(run, func(x, y reserveEntry) int { return value.CompareRepr(x.v, y.v) })
		for i := 0; i < len(run); {
			e := run[i]
			for i++; i < len(run) && value.CompareRepr(run[i].v, e.v) == 0; i++ {
				e.n += run[i].n
			}
			if !emit(e.v, e.n) {
				return false
			}
		}
		run = run[:0]
		return true
	}
	more := true
	each := func(v value.Value, w int64) bool {
		if len(run) > 0 && a.cmpValue(v, run[0].v) != 0 && !flush() {
			more = false
			return false
		}
		run = append(run, reserveEntry{v: v, n: w})
		return true
	}
	var err error
	if spec.set >= 0 {
		c.sets[spec.set].scan(a.max, &c.scr, func(k, n int64) bool { return each(value.FromInt(spec.in, k), n) })
	} else {
		spec.Index.AwaitLoad() // a shared index may still be loading during a cold start
		spec.Index.Scan(c.key, a.max, func(row value.Row, w int64) bool {
			if spec.Base != nil {
				r, ok, e := spec.Base.apply(row)
				if e != nil || !ok {
					err = e
					return e == nil
				}
				row = r
			}
			if spec.Filter != nil {
				ok, e := spec.Filter.Eval(row)
				if e != nil {
					err = e
					return false
				}
				if !isTrue(ok) {
					return true
				}
			}
			v, e := spec.Arg.Eval(row)
			if e != nil {
				err = e
				return false
			}
			if v.IsNull() {
				return true
			}
			return each(v, w)
		})
	}
	if err != nil {
		return 0, err
	}
	if more && len(run) > 0 {
		more = flush()
	}
	for more && j < len(ch) {
		more = emit(ch[j].vals[0], sumEqual(a, ch, &j))
		j++
	}
	return len(c.res) - off, nil
}

// sumEqual sums the weights of the changes equal to ch[*j], leaving *j at
// the last of them.
func sumEqual(a *minMaxAcc, ch []aggChange, j *int) int64 {
	w := ch[*j].w
	for *j+1 < len(ch) && a.cmp(ch[*j+1].vals[0], ch[*j].vals[0]) == 0 {
		*j++
		w += ch[*j].w
	}
	return w
}

func (a *minMaxAcc) commit() {
	if !a.staged {
		return
	}
	staged := a.c.res[a.soff : a.soff+a.slen]
	if cap(a.res) < len(staged) || cap(a.res) > 2*a.k {
		a.res = make([]reserveEntry, 0, min(a.k, max(len(staged), 1)))
	}
	a.res = append(a.res[:0], staged...)
	clear(a.res[len(a.res):cap(a.res)])
	a.m = a.sm
	a.abort()
}

func (a *minMaxAcc) abort() { a.staged, a.c, a.sm, a.soff, a.slen = false, nil, 0, 0, 0 }

func (a *minMaxAcc) bytes() int64 {
	b := int64(unsafe.Sizeof(*a)) + int64(cap(a.res))*int64(unsafe.Sizeof(reserveEntry{}))
	if len(a.res) == 0 || !a.res[0].v.Kind().IsString() {
		return b // the values are all of one kind
	}
	for _, e := range a.res {
		b += (int64(len(e.v.Str())) + 7) &^ 7
	}
	return b
}
