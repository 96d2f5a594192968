package value

import (
	"bytes"
	"testing"
)

// Arrays of records key by their elements, in order: two arrays of the
// same length but different records differ, and keys order as Compare.
func TestRecordArrayKeys(t *testing.T) {
	rec := func(n int64) Value { return NewRecord([]Value{NewInt(Int4, n)}) }
	arr := func(ns ...int64) Value {
		es := make([]Value, len(ns))
		for i, n := range ns {
			es[i] = rec(n)
		}
		return NewArray(ArrayOf(Record), es)
	}
	vals := []Value{arr(1, 2, 3, 4, 1), arr(4, 1, 2, 3, 1), arr(1, 2), arr(1, 3), arr(1)}
	for i, a := range vals {
		for j, b := range vals {
			ka, kb := AppendKey(nil, a), AppendKey(nil, b)
			if got, want := sign(bytes.Compare(ka, kb)), sign(Compare(a, b)); got != want {
				t.Errorf("key order of %v and %v is %d, Compare says %d", a, b, got, want)
			}
			if i != j && bytes.Equal(ka, kb) {
				t.Errorf("%v and %v have the same key", a, b)
			}
		}
	}
}
