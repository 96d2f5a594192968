package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestAscending checks the cold start's test of a batch's order, pair by
// pair, against zset.CompareRows: first values of one integer kind that
// differ (negative, extremes), equal ones (the rest of the rows decides),
// NULL, two integer kinds, text, dates, and rows of other lengths.
func TestAscending(t *testing.T) {
	ints := []int64{math.MinInt64, -1 << 40, -2, -1, 0, 1, 2, 255, 256, 1 << 40, math.MaxInt64}
	rng := rand.New(rand.NewPCG(3, 5))
	first := func() value.Value {
		n := ints[rng.IntN(len(ints))]
		switch rng.IntN(8) {
		case 0:
			return value.Null
		case 1:
			return value.NewInt(value.Int4, int64(int32(n)))
		case 2:
			return value.NewText(value.Text, string(rune('a'+rng.IntN(3))))
		case 3:
			return value.NewInt(value.Int2, int64(int16(n)))
		}
		return value.NewInt(value.Int8, n)
	}
	row := func() value.Row {
		r := value.Row{first()}
		for range rng.IntN(3) {
			r = append(r, value.NewText(value.Text, string(rune('a'+rng.IntN(3)))))
		}
		return r
	}
	fast := 0
	for range 200_000 {
		a, b := row(), row()
		if rng.IntN(4) == 0 {
			b[0] = a[0]
		}
		if got, want := ascending(a, b), zset.CompareRows(a, b) < 0; got != want {
			t.Fatalf("ascending(%s, %s) = %v, want %v", zset.FormatRow(a), zset.FormatRow(b), got, want)
		}
		if a[0].Kind() == b[0].Kind() && !a[0].IsNull() && value.IntOrdered(a[0].Kind()) && a[0].Int() != b[0].Int() {
			fast++
		}
	}
	if fast < 10_000 {
		t.Fatalf("only %d pairs decided by their first integers", fast)
	}
}
