package partial_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/partial"
	"github.com/deltaview/deltaview/internal/value"
)

// TestJoinWidensLeftKeys: a join keeps its entries' left keys as integers
// while they are integers of one kind; a left key of another kind moves
// them all to values, and right changes keep reaching every left row,
// before and after left rows leave.
func TestJoinWidensLeftKeys(t *testing.T) {
	l, _ := delta.NewSchema("L", []string{"k", "fk"}, []int{0})
	r, _ := delta.NewSchema("R", []string{"k", "c"}, []int{0})
	c := partial.NewCircuit()
	j, err := partial.NewJoin("J", l, r, []int{1}, []int{1}, false)
	if err != nil {
		t.Fatal(err)
	}
	c.Add(j, c.Source(l), c.Source(r))
	i4 := func(n int64) value.Value { return value.NewInt(value.Int4, n) }
	i8 := func(n int64) value.Value { return value.NewInt(value.Int8, n) }
	txt := func(s string) value.Value { return value.NewText(value.Text, s) }
	step := func(tx map[string]delta.Batch) string {
		t.Helper()
		out, err := c.Step(tx)
		if err != nil {
			t.Fatal(err)
		}
		c.Commit()
		return strings.TrimSpace(out.String())
	}
	city := func(s string) map[string]delta.Batch {
		return map[string]delta.Batch{"R": {delta.PartialUpdate{Row: value.Row{i4(1), txt(s)}}}}
	}
	step(map[string]delta.Batch{
		"R": {delta.Insert{Row: value.Row{i4(1), txt("a")}}},
		"L": {delta.Insert{Row: value.Row{i4(1), i4(1)}}, delta.Insert{Row: value.Row{i4(2), i4(1)}}},
	})
	step(map[string]delta.Batch{"L": {delta.Insert{Row: value.Row{i8(3), i4(1)}}}})
	for _, c := range []struct {
		tx   map[string]delta.Batch
		want string
	}{
		{city("b"), "update (1, 1, a) -> (1, 1, b)\nupdate (2, 1, a) -> (2, 1, b)\nupdate (3, 1, a) -> (3, 1, b)"},
		{map[string]delta.Batch{"L": {delta.Delete{Row: value.Row{i4(1), i4(1)}}}}, "delete (1, 1, b)"},
		{city("c"), "update (2, 1, b) -> (2, 1, c)\nupdate (3, 1, b) -> (3, 1, c)"},
		{map[string]delta.Batch{"L": {delta.Delete{Row: value.Row{i4(2), i4(1)}}}}, "delete (2, 1, c)"},
		{city("d"), "update (3, 1, c) -> (3, 1, d)"},
	} {
		if got := step(c.tx); got != c.want {
			t.Fatalf("got\n%s\nwant\n%s", got, c.want)
		}
	}
}
