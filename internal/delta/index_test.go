package delta

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/value"
)

// TestIndexProperty: an Index answers as a map keyed by the encoded key
// does, under any sequence of sets and deletes, also when hashes collide
// (a hash of few values sends keys to the overflow and back).
func TestIndexProperty(t *testing.T) {
	for _, name := range []string{"xxh3", "collide"} {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				var x Index[int]
				if name == "collide" {
					x.hash = func(b []byte) uint64 { return value.HashKey(b) % 3 }
				}
				want := map[string]int{}
				key := func() value.Row {
					return value.Row{value.NewInt(value.Int4, int64(rapid.IntRange(0, 9).Draw(t, "k"))), value.NewText(value.Text, rapid.SampledFrom([]string{"a", "b"}).Draw(t, "s"))}
				}
				for i, n := 0, rapid.IntRange(0, 60).Draw(t, "n"); i < n; i++ {
					k := key()
					enc := string(value.AppendRowKey(nil, k))
					switch rapid.IntRange(0, 2).Draw(t, "op") {
					case 0, 1:
						x.Set(k, i)
						want[enc] = i
					default:
						x.Delete(k)
						delete(want, enc)
					}
					if x.Len() != len(want) {
						t.Fatalf("len %d, want %d", x.Len(), len(want))
					}
					for e, v := range want {
						var r value.Row
						x.All(func(k value.Row, got int) bool {
							if string(value.AppendRowKey(nil, k)) == e {
								r = k
							}
							return true
						})
						if got, ok := x.Get(r); r == nil || !ok || got != v {
							t.Fatalf("key %q: got %d %v, want %d", e, got, ok, v)
						}
					}
					if _, ok := x.Get(k); ok != (want[enc] != 0 || hasKey(want, enc)) {
						t.Fatalf("key %v: present %v", k, ok)
					}
				}
			})
		})
	}
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }
