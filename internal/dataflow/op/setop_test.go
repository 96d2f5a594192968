package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"pgregory.net/rapid"
)

// TestSetOpTwin steps random batches (with NULLs and duplicates, weights
// kept nonnegative as tables keep them) through each set operation and
// checks after every step that the integrated output equals the set
// operation recomputed from the integrated inputs.
func TestSetOpTwin(t *testing.T) {
	for _, kind := range []SetOpKind{Intersect, IntersectAll, Except, ExceptAll} {
		t.Run(setOpNames[kind], func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				c := dataflow.NewCircuit()
				l, r := c.Input("l"), c.Input("r")
				s := NewSetOp(kind)
				view := NewIntegrate()
				c.Add(view, c.Add(s, l, r))
				state := [2]map[int64]int64{{}, {}}
				steps := rapid.IntRange(1, 12).Draw(t, "steps")
				for i := 0; i < steps; i++ {
					var batches [2]zset.ZSet
					for side := range 2 {
						n := rapid.IntRange(0, 4).Draw(t, "n")
						for j := 0; j < n; j++ {
							v := rapid.Int64Range(-1, 3).Draw(t, "v") // -1 stands for NULL
							w := rapid.Int64Range(-2, 2).Draw(t, "w")
							if state[side][v]+w < 0 {
								w = -state[side][v]
							}
							if w == 0 {
								continue
							}
							state[side][v] += w
							batches[side] = append(batches[side], zset.Entry{Row: setRow(v), W: w})
						}
					}
					if err := c.Step(map[string]zset.ZSet{"l": batches[0], "r": batches[1]}); err != nil {
						t.Fatal(err)
					}
					var want zset.ZSet
					for v := int64(-1); v <= 3; v++ {
						if m := s.mult(state[0][v], state[1][v]); m > 0 {
							want = append(want, zset.Entry{Row: setRow(v), W: m})
						}
					}
					var got zset.ZSet
					view.Rows(func(r value.Row, w int64) bool {
						got = append(got, zset.Entry{Row: r, W: w})
						return true
					})
					if !zset.Equal(zset.Consolidate(want), zset.Consolidate(got)) {
						t.Fatalf("step %d: got\n%v\nwant\n%v", i, got, want)
					}
				}
			})
		})
	}
}

func setRow(v int64) value.Row {
	if v < 0 {
		return value.Row{value.Null}
	}
	return value.Row{value.NewInt(value.Int4, v)}
}
