package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestZsetEqualSameValues checks zsetEqual's shortcut for rows of the same
// values bit for bit against zset.CompareRows, over values of many types
// (NULL, NaN, ±0, infinities, numerics of several scales, long and empty
// text, arrays, records, json, intervals, ranges): a row of each value is
// one row with itself, and two rows of values equal but printed apart
// (1.5 and 1.50, 0 and -0) stay two rows.
func TestZsetEqualSameValues(t *testing.T) {
	var vals []value.Value
	add := func(typ value.Type, texts ...string) {
		for _, s := range texts {
			v, err := value.Parse(s, typ)
			if err != nil {
				t.Fatalf("%s %q: %v", typ, s, err)
			}
			vals = append(vals, v)
		}
	}
	vals = append(vals, value.Null)
	add(value.BoolType, "true", "false")
	add(value.Type{Kind: value.Int8, Mod: -1}, "0", "-9223372036854775808", "42")
	add(value.Type{Kind: value.Float8, Mod: -1}, "0", "-0", "NaN", "Infinity", "-Infinity", "1.5")
	add(value.Type{Kind: value.Float4, Mod: -1}, "NaN", "-0", "2.25")
	add(value.NumericType, "1.5", "1.50", "NaN", "123456789012345678901234567890.000000001", "-0.0")
	add(value.TextType, "", "a", "a long text well past any inline size, to be kept by reference")
	add(value.DateType, "2026-12-05", "infinity")
	add(value.Type{Kind: value.Interval, Mod: -1}, "1 day", "24 hours")
	add(value.ByteaType, `\x00ff`)
	add(value.Type{Kind: value.ArrayOf(value.Int4), Mod: -1}, "{1,2,NULL}", "{}")
	add(value.Type{Kind: value.ArrayOf(value.Numeric), Mod: -1}, "{1.5,1.50}")
	add(value.Type{Kind: value.JSONB, Mod: -1}, `{"a": [1, 2.0]}`)
	add(value.Type{Kind: value.NumRange, Mod: -1}, "[1.5,2.50)", "empty")
	for _, v := range vals {
		for _, r := range []value.Row{{v}, {v, value.Null, v}} {
			same := append(value.Row(nil), r...)
			if !zsetEqual(r, same) || zset.CompareRows(r, same) != 0 {
				t.Errorf("row %s is not one row with itself", zset.FormatRow(r))
			}
		}
	}
	for _, a := range vals {
		for _, b := range vals {
			ra, rb := value.Row{value.NewInt(value.Int8, 1), a}, value.Row{value.NewInt(value.Int8, 1), b}
			if got, want := zsetEqual(ra, rb), zset.CompareRows(ra, rb) == 0; got != want {
				t.Errorf("zsetEqual(%s, %s) = %v, CompareRows says %v", zset.FormatRow(ra), zset.FormatRow(rb), got, want)
			}
		}
	}
	if zsetEqual(value.Row{value.Null}, value.Row{value.Null, value.Null}) {
		t.Error("rows of two lengths are one row")
	}
}
