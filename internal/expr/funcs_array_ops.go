package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The array operators @> (arraycontains), <@ (arraycontained) and &&
// (arrayoverlap), as PostgreSQL compares the elements: a NULL element
// equals nothing, so ARRAY[NULL] @> ARRAY[NULL] is false, and every array
// contains an empty one.
func init() {
	boolResult := func(value.Kind) value.Type { return value.BoolType }
	// contains reports whether every element of b is in a.
	contains := func(a, b value.Value) bool {
		for _, y := range b.Elems() {
			found := false
			if !y.IsNull() {
				for _, x := range a.Elems() {
					if !x.IsNull() && value.Compare(x, y) == 0 {
						found = true
						break
					}
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	polyStrict("arraycontains", []poly{pAnyArray, pAnyArray}, boolResult, func(a []value.Value) (value.Value, error) {
		return boolValue(contains(a[0], a[1])), nil
	})
	polyStrict("arraycontained", []poly{pAnyArray, pAnyArray}, boolResult, func(a []value.Value) (value.Value, error) {
		return boolValue(contains(a[1], a[0])), nil
	})
	polyStrict("arrayoverlap", []poly{pAnyArray, pAnyArray}, boolResult, func(a []value.Value) (value.Value, error) {
		for _, y := range a[1].Elems() {
			if y.IsNull() {
				continue
			}
			for _, x := range a[0].Elems() {
				if !x.IsNull() && value.Compare(x, y) == 0 {
					return boolValue(true), nil
				}
			}
		}
		return boolValue(false), nil
	})
}
