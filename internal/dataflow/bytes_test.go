package dataflow

import (
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/value"
)

// TestRowBytesAt checks that RowBytesAt, given the columns whose kinds are
// not HeldWhole, gives RowBytes of rows of every kind of column, NULLs
// among them.
func TestRowBytesAt(t *testing.T) {
	big, _, err := apd.NewFromString("123456789012345678901234567890123456789012345.5")
	if err != nil {
		t.Fatal(err)
	}
	small, _, _ := apd.NewFromString("1.50")
	kinds := []func(*rand.Rand) value.Value{
		func(r *rand.Rand) value.Value { return value.NewInt(value.Int4, r.Int64N(100)) },
		func(r *rand.Rand) value.Value { return value.NewInt(value.Int8, r.Int64()) },
		func(r *rand.Rand) value.Value { return value.NewFloat(value.Float8, r.Float64()) },
		func(r *rand.Rand) value.Value { return value.NewBool(r.IntN(2) == 0) },
		func(r *rand.Rand) value.Value { return value.NewText(value.Text, string(make([]byte, r.IntN(40)))) },
		func(r *rand.Rand) value.Value { return value.NewText(value.Varchar, "abc"[:r.IntN(4)]) },
		func(r *rand.Rand) value.Value {
			if r.IntN(2) == 0 {
				return value.NewNumeric(big)
			}
			return value.NewNumeric(small)
		},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 1 + rng.IntN(6)
		cols := make([]int, n)
		var sized []int32
		for i := range cols {
			cols[i] = rng.IntN(len(kinds))
			if !HeldWhole(kinds[cols[i]](rng).Kind()) {
				sized = append(sized, int32(i))
			}
		}
		row := make(value.Row, n)
		for i, k := range cols {
			if rng.IntN(4) == 0 {
				row[i] = value.Null
			} else {
				row[i] = kinds[k](rng)
			}
		}
		if got, want := RowBytesAt(row, sized), RowBytes(row); got != want {
			t.Fatalf("RowBytesAt(%v, %v) = %d, RowBytes = %d", row, sized, got, want)
		}
	}
	if HeldWhole(value.Unknown) || HeldWhole(value.Text) || !HeldWhole(value.Int4) {
		t.Fatal("HeldWhole: wrong for unknown, text or int4")
	}
}
