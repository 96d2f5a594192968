package delta

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/value"
)

// TestTargetSlots: a target holds what a map keyed by the encoded key
// holds, under any sequence of upserts and deletions, committed in
// batches, also when its integer keys come in two kinds (the first key's
// kind is kept in an array, the other by hash) and the rows that leave
// give their slots to others.
func TestTargetSlots(t *testing.T) {
	s, err := NewSchema("t", []string{"k", "v"}, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(t *rapid.T) {
		tg := NewTarget(s)
		want := map[string]value.Row{}
		for i, n := 0, rapid.IntRange(0, 40).Draw(t, "batches"); i < n; i++ {
			var b Batch
			for j, m := 0, rapid.IntRange(1, 20).Draw(t, "changes"); j < m; j++ {
				kind := rapid.SampledFrom([]value.Kind{value.Int4, value.Int8}).Draw(t, "kind")
				k := value.NewInt(kind, int64(rapid.IntRange(-3, 150).Draw(t, "k")))
				enc := string(value.AppendRowKey(nil, value.Row{k}))
				if rapid.IntRange(0, 2).Draw(t, "op") < 2 {
					r := value.Row{k, value.NewInt(value.Int4, int64(i*100+j))}
					b = append(b, Upsert{Row: r})
					want[enc] = r
				} else {
					b = append(b, SafePartialDelete{KeyVals: value.Row{k}})
					delete(want, enc)
				}
			}
			if err := tg.Apply(b); err != nil {
				t.Fatal(err)
			}
			if tg.Len() != len(want) {
				t.Fatalf("len %d, want %d", tg.Len(), len(want))
			}
			for _, r := range want {
				got, ok := tg.Get(r[:1])
				if !ok || value.CompareRows(got, r) != 0 {
					t.Fatalf("key %v: got %v %v, want %v", r[0], got, ok, r)
				}
			}
		}
	})
}
