package value

import "github.com/deltaview/deltaview/internal/pgerr"

// The range operators, as PostgreSQL's rangetypes.c computes them. Both
// ranges are of one kind.

// RangeContains is r1 @> r2.
func RangeContains(r1, r2 Value) bool {
	if r2.IsEmptyRange() {
		return true
	}
	if r1.IsEmptyRange() {
		return false
	}
	l1, u1 := r1.RangeBounds()
	l2, u2 := r2.RangeBounds()
	return CmpRangeBounds(l1, l2) <= 0 && CmpRangeBounds(u1, u2) >= 0
}

// RangeContainsElem is r @> v.
func RangeContainsElem(r, v Value) bool {
	if r.IsEmptyRange() {
		return false
	}
	lo, hi := r.RangeBounds()
	if !lo.Inf {
		if c := Compare(lo.Val, v); c > 0 || c == 0 && !lo.Inc {
			return false
		}
	}
	if !hi.Inf {
		if c := Compare(hi.Val, v); c < 0 || c == 0 && !hi.Inc {
			return false
		}
	}
	return true
}

// RangeOverlaps is r1 && r2.
func RangeOverlaps(r1, r2 Value) bool {
	if r1.IsEmptyRange() || r2.IsEmptyRange() {
		return false
	}
	l1, u1 := r1.RangeBounds()
	l2, u2 := r2.RangeBounds()
	return CmpRangeBounds(l1, l2) >= 0 && CmpRangeBounds(l1, u2) <= 0 ||
		CmpRangeBounds(l2, l1) >= 0 && CmpRangeBounds(l2, u1) <= 0
}

// RangeBefore is r1 << r2: r1 ends before r2 starts.
func RangeBefore(r1, r2 Value) bool {
	if r1.IsEmptyRange() || r2.IsEmptyRange() {
		return false
	}
	_, u1 := r1.RangeBounds()
	l2, _ := r2.RangeBounds()
	return CmpRangeBounds(u1, l2) < 0
}

// RangeOverLeft is r1 &< r2: r1 does not extend to the right of r2.
func RangeOverLeft(r1, r2 Value) bool {
	if r1.IsEmptyRange() || r2.IsEmptyRange() {
		return false
	}
	_, u1 := r1.RangeBounds()
	_, u2 := r2.RangeBounds()
	return CmpRangeBounds(u1, u2) <= 0
}

// RangeOverRight is r1 &> r2: r1 does not extend to the left of r2.
func RangeOverRight(r1, r2 Value) bool {
	if r1.IsEmptyRange() || r2.IsEmptyRange() {
		return false
	}
	l1, _ := r1.RangeBounds()
	l2, _ := r2.RangeBounds()
	return CmpRangeBounds(l1, l2) >= 0
}

// RangeAdjacent is r1 -|- r2: one ends where the other starts, with no
// value between them.
func RangeAdjacent(r1, r2 Value) bool {
	if r1.IsEmptyRange() || r2.IsEmptyRange() {
		return false
	}
	l1, u1 := r1.RangeBounds()
	l2, u2 := r2.RangeBounds()
	return boundsAdjacent(r1.kind, u1, l2) || boundsAdjacent(r1.kind, u2, l1)
}

// boundsAdjacent reports whether upper bound a meets lower bound b: equal
// values, one of them inclusive; or, for a discrete range, no value
// between them.
func boundsAdjacent(k Kind, a, b RangeBound) bool {
	switch c := cmpRangeBoundValues(a, b); {
	case c == 0:
		return a.Inc != b.Inc
	case c > 0 || !k.discrete():
		return false
	}
	r, err := MakeRange(k, RangeBound{Val: a.Val, Inf: a.Inf, Inc: !a.Inc}, RangeBound{Val: b.Val, Inf: b.Inf, Inc: !b.Inc}, false)
	return err == nil && r.IsEmptyRange()
}

// RangeUnion is r1 + r2; with strict false, range_merge(r1, r2), which
// also spans a gap between them.
func RangeUnion(r1, r2 Value, strict bool) (Value, error) {
	if r1.IsEmptyRange() {
		return r2, nil
	}
	if r2.IsEmptyRange() {
		return r1, nil
	}
	if strict && !RangeOverlaps(r1, r2) && !RangeAdjacent(r1, r2) {
		return Null, pgerr.New("22000", "result of range union would not be contiguous")
	}
	l1, u1 := r1.RangeBounds()
	l2, u2 := r2.RangeBounds()
	if CmpRangeBounds(l1, l2) >= 0 {
		l1 = l2
	}
	if CmpRangeBounds(u1, u2) <= 0 {
		u1 = u2
	}
	return MakeRange(r1.kind, l1, u1, false)
}

// RangeIntersect is r1 * r2.
func RangeIntersect(r1, r2 Value) (Value, error) {
	if !RangeOverlaps(r1, r2) {
		return EmptyRange(r1.kind), nil
	}
	l1, u1 := r1.RangeBounds()
	l2, u2 := r2.RangeBounds()
	if CmpRangeBounds(l1, l2) < 0 {
		l1 = l2
	}
	if CmpRangeBounds(u1, u2) > 0 {
		u1 = u2
	}
	return MakeRange(r1.kind, l1, u1, false)
}

// RangeMinus is r1 - r2; 22000 when r2 splits r1 in two.
func RangeMinus(r1, r2 Value) (Value, error) {
	if r1.IsEmptyRange() || r2.IsEmptyRange() {
		return r1, nil
	}
	l1, u1 := r1.RangeBounds()
	l2, u2 := r2.RangeBounds()
	cl1l2, cl1u2 := CmpRangeBounds(l1, l2), CmpRangeBounds(l1, u2)
	cu1l2, cu1u2 := CmpRangeBounds(u1, l2), CmpRangeBounds(u1, u2)
	switch {
	case cl1l2 < 0 && cu1u2 > 0:
		return Null, pgerr.New("22000", "result of range difference would not be contiguous")
	case cl1u2 > 0 || cu1l2 < 0:
		return r1, nil
	case cl1l2 >= 0 && cu1u2 <= 0:
		return EmptyRange(r1.kind), nil
	case cl1l2 <= 0 && cu1l2 >= 0 && cu1u2 <= 0:
		l2.Inc = !l2.Inc
		return MakeRange(r1.kind, l1, l2, false)
	}
	// cl1l2 >= 0 && cu1u2 >= 0 && cl1u2 <= 0
	u2.Inc = !u2.Inc
	return MakeRange(r1.kind, u2, u1, false)
}
