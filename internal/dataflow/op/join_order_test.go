package op

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestConsolidatedNeighbours gives consolidated sorted batches, batches
// with neighbours swapped (a join's output of a consolidated change),
// entries moved further, equal rows, zero weights and shuffled batches,
// and checks that a batch it reports consolidated is exactly what
// zset.Consolidate makes of the batch given, and that one it does not
// still consolidates to that.
func TestConsolidatedNeighbours(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	row := func(id, v int64) value.Row {
		return value.Row{value.NewInt(value.Int8, id), value.NewInt(value.Int8, v), value.NewText(value.Text, "n")}
	}
	took := 0
	for i := range 400 {
		n := 1 + rng.IntN(300)
		var z zset.ZSet
		for id := range int64(n) {
			z = append(z, zset.Entry{Row: row(id, rng.Int64N(100)), W: -1}, zset.Entry{Row: row(id, rng.Int64N(100)), W: 1})
		}
		z = zset.Consolidate(z)
		kind := i % 6
		switch kind {
		case 1: // neighbours swapped
			for j := 1; j < len(z); j += 2 {
				if rng.IntN(2) == 0 {
					z[j-1], z[j] = z[j], z[j-1]
				}
			}
		case 2: // an entry moved further
			if len(z) > 3 {
				j := rng.IntN(len(z) - 3)
				z[j], z[j+2] = z[j+2], z[j]
			}
		case 3: // an equal row
			if len(z) > 1 {
				j := rng.IntN(len(z) - 1)
				z = slices.Insert(z, j+1, zset.Entry{Row: z[j].Row, W: 1})
			}
		case 4: // a zero weight
			z[rng.IntN(len(z))].W = 0
		case 5:
			rng.Shuffle(len(z), func(a, b int) { z[a], z[b] = z[b], z[a] })
		}
		want := zset.Consolidate(slices.Clone(z))
		if consolidated(z) {
			took++
			if kind >= 2 && kind <= 4 && len(z) >= minNeighbours {
				t.Fatalf("batch %d (kind %d): reported consolidated", i, kind)
			}
		} else {
			z = zset.Consolidate(z)
		}
		if fmt.Sprint(z) != fmt.Sprint(want) {
			t.Fatalf("batch %d (kind %d): got\n%s\nwant\n%s", i, kind, z, want)
		}
	}
	if took == 0 {
		t.Fatal("no batch was put in order in place")
	}
}
