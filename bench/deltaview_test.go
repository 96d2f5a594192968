package bench

import (
	"slices"
	"testing"
)

// TestReplaceRowsAsEachReplace applies the same random batches (with
// repeated ids within a batch) through ReplaceRows and through one Replace
// a row, and checks every view's rows agree with each other and with the
// recomputation after each batch.
func TestReplaceRowsAsEachReplace(t *testing.T) {
	const n = 2000
	d1, d2 := NewData(n), NewData(n)
	rows, each := &Deltaview{}, &Deltaview{EachReplace: true}
	if err := rows.Load(d1); err != nil {
		t.Fatal(err)
	}
	if err := each.Load(d2); err != nil {
		t.Fatal(err)
	}
	for _, v := range Views {
		for _, sys := range []*Deltaview{rows, each} {
			if err := sys.CreateView(v); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, size := range []int{2, 100, 3000, 1, 500} {
		b1, b2 := d1.Batch(size), d2.Batch(size)
		if !slices.Equal(b1, b2) {
			t.Fatal("the two workloads drew different batches")
		}
		if err := rows.Apply(Views[0], b1); err != nil {
			t.Fatal(err)
		}
		if err := each.Apply(Views[0], b2); err != nil {
			t.Fatal(err)
		}
		for _, v := range Views {
			a1, err := rows.Answer(v)
			if err != nil {
				t.Fatal(err)
			}
			a2, err := each.Answer(v)
			if err != nil {
				t.Fatal(err)
			}
			if err := Compare(v, a1, d1.Expected(v)); err != nil {
				t.Fatalf("batch %d (%d changes), ReplaceRows: %v", i, size, err)
			}
			if err := Compare(v, a2, a1); err != nil {
				t.Fatalf("batch %d (%d changes), each Replace against ReplaceRows: %v", i, size, err)
			}
		}
	}
}
