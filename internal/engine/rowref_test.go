package engine

import (
	"reflect"
	"testing"
)

// TestKeyEntryHoldsNoPointer checks that an integer key's entry (rowRef)
// is pointer-free: its index's array, a million entries for a table of a
// million rows, is then memory the garbage collector neither scans nor
// follows at each cycle (docs/performance.md, "Batches of 10,000: a key's
// index of slot numbers").
func TestKeyEntryHoldsNoPointer(t *testing.T) {
	var walk func(reflect.Type) bool
	walk = func(ty reflect.Type) bool {
		switch ty.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return true
		case reflect.Array:
			return walk(ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				if !walk(ty.Field(i).Type) {
					return false
				}
			}
			return true
		}
		return false
	}
	if ty := reflect.TypeFor[rowRef](); !walk(ty) {
		t.Fatalf("%v holds a pointer: the collector scans the key's index and follows its entries", ty)
	}
}
