package store

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/value"
)

// storageType is the SQLite column type a kind is stored as: INTEGER for
// the kinds a value holds as an integer, TEXT for the others. No column
// has NUMERIC affinity, which would turn '1.50' into 1.5.
func storageType(k value.Kind) string {
	if value.IntOrdered(k) {
		return "INTEGER"
	}
	return "TEXT"
}

// encode returns the SQLite value v is stored as.
func encode(v value.Value) any {
	if v.IsNull() {
		return nil
	}
	k := v.Kind()
	switch {
	case value.IntOrdered(k):
		return v.Int()
	case k.IsString():
		return v.Str()
	}
	return string(value.AppendText(nil, v))
}

// decode reads back a stored value as type t.
func decode(x any, t value.Type) (value.Value, error) {
	switch x := x.(type) {
	case nil:
		return value.Null, nil
	case int64:
		if !value.IntOrdered(t.Kind) {
			return value.Null, fmt.Errorf("an integer where %s is stored as text", t)
		}
		if t.Kind == value.Bool {
			return value.NewBool(x != 0), nil
		}
		return value.FromInt(t.Kind, x), nil
	case string:
		if t.Kind.IsString() {
			return value.NewText(t.Kind, x), nil
		}
		if value.IntOrdered(t.Kind) {
			return value.Null, fmt.Errorf("text %q where %s is stored as an integer", x, t)
		}
		return value.Parse(x, t)
	case []byte:
		return decode(string(x), t)
	}
	return value.Null, fmt.Errorf("a stored value of Go type %T", x)
}
