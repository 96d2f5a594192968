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
	for _, name := range []string{"xxh3", "collide", "keyof", "ints"} {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				var x Index[int]
				if name != "xxh3" {
					x.hash = func(b []byte) uint64 { return value.HashKey(b) % 3 }
				}
				// With KeyOf the index asks for a value's key: the i-th
				// operation's.
				keys := map[int]value.Row{}
				if name == "keyof" {
					x.KeyOf = func(i int) value.Row { return keys[i] }
				}
				want := map[string]int{}
				key := func() value.Row {
					if name == "ints" {
						// Keys of one integer column, of two kinds: the
						// first key's kind is kept by value, the other
						// by hash.
						kind := rapid.SampledFrom([]value.Kind{value.Int4, value.Int8}).Draw(t, "kind")
						return value.Row{value.NewInt(kind, int64(rapid.IntRange(-3, 200).Draw(t, "k")))}
					}
					return value.Row{value.NewInt(value.Int4, int64(rapid.IntRange(0, 9).Draw(t, "k"))), value.NewText(value.Text, rapid.SampledFrom([]string{"a", "b"}).Draw(t, "s"))}
				}
				most := 60
				if name == "ints" {
					most = 300 // enough for the intmap to take an array
				}
				for i, n := 0, rapid.IntRange(0, most).Draw(t, "n"); i < n; i++ {
					k := key()
					keys[i] = k
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
					all := map[string]value.Row{}
					x.All(func(k value.Row, _ int) bool {
						all[string(value.AppendRowKey(nil, k))] = k
						return true
					})
					for e, v := range want {
						r := all[e]
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
