package op

import (
	"cmp"
	"slices"

	"github.com/deltaview/deltaview/internal/value"
)

// sortChanges orders a group's changes best first. When every value is of
// one integer-ordered kind (value.IntOrdered), which a step of a batch's
// changes to an integer column is, they are ordered by their Int()s,
// the order value.Compare gives them, without its dispatch on the kind.
func (a *minMaxAcc) sortChanges(ch []aggChange) {
	if len(ch) < 2 {
		return
	}
	k := ch[0].vals[0].Kind()
	same := value.IntOrdered(k)
	for i := 1; same && i < len(ch); i++ {
		same = ch[i].vals[0].Kind() == k
	}
	switch {
	case !same:
		slices.SortFunc(ch, func(x, y aggChange) int { return a.cmp(x.vals[0], y.vals[0]) })
	case a.max:
		slices.SortFunc(ch, func(x, y aggChange) int { return cmp.Compare(y.vals[0].Int(), x.vals[0].Int()) })
	default:
		slices.SortFunc(ch, func(x, y aggChange) int { return cmp.Compare(x.vals[0].Int(), y.vals[0].Int()) })
	}
}

// sameGroupKey reports whether two groups' keys are equal: by Int() for a
// key of one integer-ordered value of one kind, by value.CompareRows
// otherwise.
func sameGroupKey(a, b value.Row) bool {
	if len(a) == 1 && len(b) == 1 {
		if k := a[0].Kind(); k == b[0].Kind() && value.IntOrdered(k) {
			return a[0].Int() == b[0].Int()
		}
	}
	return value.CompareRows(a, b) == 0
}
