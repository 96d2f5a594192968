package zset

import (
	"math"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/value"
)

func numeric(t *testing.T, s string) value.Value {
	t.Helper()
	d, _, err := apd.NewFromString(s)
	if err != nil {
		t.Fatal(err)
	}
	return value.NewNumeric(d)
}

// Values equal in SQL but printed differently are different rows: a view
// over a float column holding 0 and -0 holds both, and an update from -0
// to 0 is a change. Consolidation once merged them, so a maintained view
// printed "-0" twice where PostgreSQL printed "-0" and "0".
func TestConsolidateKeepsRepresentations(t *testing.T) {
	negZero := value.NewFloat(value.Float8, math.Copysign(0, -1))
	zero := value.NewFloat(value.Float8, 0)
	z := Consolidate(ZSet{{Row: value.Row{zero}, W: 1}, {Row: value.Row{negZero}, W: 1}, {Row: value.Row{zero}, W: 1}})
	if got, want := z.String(), "+1 (-0)\n+2 (0)\n"; got != want {
		t.Errorf("float: got\n%swant\n%s", got, want)
	}
	z = Consolidate(ZSet{{Row: value.Row{numeric(t, "1.50")}, W: 1}, {Row: value.Row{numeric(t, "1.5")}, W: -1}})
	if got, want := z.String(), "-1 (1.5)\n+1 (1.50)\n"; got != want {
		t.Errorf("numeric: got\n%swant\n%s", got, want)
	}
	if !IsConsolidated(z) {
		t.Errorf("IsConsolidated(%v) = false", z)
	}
	if sum := Add(z, z.Negate()); len(sum) != 0 {
		t.Errorf("z - z = %v", sum)
	}
	if Equal(ZSet{{Row: value.Row{negZero}, W: 1}}, ZSet{{Row: value.Row{zero}, W: 1}}) {
		t.Error("Equal holds -0 and 0 equal")
	}
}
