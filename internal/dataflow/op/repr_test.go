package op

import (
	"math"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Distinct counts -0 and 0 as one row, shown as the first representation
// some row has (-0 before 0); Integrate keeps both, as a view without
// DISTINCT shows both.
func TestDistinctAndIntegrateRepresentations(t *testing.T) {
	negZero := value.Row{value.NewFloat(value.Float8, math.Copysign(0, -1))}
	zero := value.Row{value.NewFloat(value.Float8, 0)}
	step := func(op interface {
		Step([]zset.ZSet) (zset.ZSet, error)
		Commit()
	}, in zset.ZSet) string {
		out, err := op.Step([]zset.ZSet{zset.Consolidate(in)})
		if err != nil {
			t.Fatal(err)
		}
		op.Commit()
		return out.String()
	}
	d := NewDistinct()
	if got, want := step(d, zset.ZSet{{Row: zero, W: 1}, {Row: negZero, W: 1}}), "+1 (-0)\n"; got != want {
		t.Errorf("distinct insert: got %q, want %q", got, want)
	}
	if got, want := step(d, zset.ZSet{{Row: negZero, W: -1}}), "-1 (-0)\n+1 (0)\n"; got != want {
		t.Errorf("distinct partial delete: got %q, want %q", got, want)
	}
	if got, want := step(d, zset.ZSet{{Row: negZero, W: 1}, {Row: zero, W: 1}}), "+1 (-0)\n-1 (0)\n"; got != want {
		t.Errorf("distinct insert of the first representation: got %q, want %q", got, want)
	}
	if got, want := step(d, zset.ZSet{{Row: negZero, W: -1}, {Row: zero, W: -2}}), "-1 (-0)\n"; got != want {
		t.Errorf("distinct delete: got %q, want %q", got, want)
	}
	g := NewIntegrate()
	if got, want := step(g, zset.ZSet{{Row: zero, W: 1}, {Row: negZero, W: 1}}), "+1 (-0)\n+1 (0)\n"; got != want {
		t.Errorf("integrate: got %q, want %q", got, want)
	}
	if g.Len() != 2 || g.Lookup(zero) != 1 || g.Lookup(negZero) != 1 {
		t.Errorf("integrate holds %s", g.String())
	}
}
