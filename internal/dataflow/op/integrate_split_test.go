package op

import (
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestIntegrateSplitLong checks that a key whose rows pile up, met only
// by the second half of a step found in halves, marks the counts long as
// a step found in order does: the Integrate hashes whole rows after it.
func TestIntegrateSplitLong(t *testing.T) {
	for _, split := range []bool{false, true} {
		g := NewIntegrate()
		g.KeyBy([]int{0})
		s := &countSplit{goSplit: goSplit{ways: 2}}
		if split {
			g.SetSplit(s)
		}
		row := func(id, v int64) value.Row {
			return value.Row{value.NewInt(value.Int8, id), value.NewInt(value.Int8, v)}
		}
		var z zset.ZSet
		for id := range int64(1000) {
			z = append(z, zset.Entry{Row: row(id, 0), W: 1})
		}
		for v := range int64(2 * longKey) { // rows piled under id 999
			z = append(z, zset.Entry{Row: row(999, v+1), W: 1})
		}
		step := func(z zset.ZSet) {
			if _, err := g.Step([]zset.ZSet{zset.Consolidate(z)}); err != nil {
				t.Fatal(err)
			}
			g.Commit()
		}
		step(z)
		if g.counts.key == nil {
			t.Fatal("unkeyed by a step that met no pile")
		}
		// A step of 400 rows, the pile's key last: in the second half.
		z = z[:0]
		for id := range int64(399) {
			z = append(z, zset.Entry{Row: row(id, 0), W: -1}, zset.Entry{Row: row(id, 1), W: 1})
		}
		z = append(z, zset.Entry{Row: row(999, 1000), W: 1})
		step(z)
		if split && s.runs == 0 {
			t.Fatal("the step was not found in halves")
		}
		if g.counts.key != nil {
			t.Fatalf("split %v: the pile met by the step did not unkey the counts", split)
		}
	}
}
