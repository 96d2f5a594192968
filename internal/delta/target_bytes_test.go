package delta

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
)

// TestTargetBytesMatchHeap checks that what a target's rows are counted
// to take (their values, the blocks' space no row fills: Slack, their
// slots and the index of their keys: IndexBytes) is what the runtime
// measures them to take, within 15 %, for integer keys (the index an
// array) and for keys of text (a hash index), after inserts and updates.
func TestTargetBytesMatchHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("fills targets of 200,000 rows")
	}
	for _, textKeys := range []bool{false, true} {
		s, err := NewSchema("T", []string{"k", "a", "b"}, []int{0})
		if err != nil {
			t.Fatal(err)
		}
		const n, step = 200_000, 10_000
		// The keys' values, text included, are made before the count:
		// the rows share them.
		keys := make([]value.Value, n)
		for i := range keys {
			keys[i] = value.NewInt(value.Int8, int64(i))
			if textKeys {
				keys[i] = value.NewText(value.Text, fmt.Sprintf("key%07d", i)) // in order as text
			}
		}
		before := heapInUse()
		tg := NewTarget(s)
		for round := range 2 { // inserts, then updates of every row
			for lo := 0; lo < n; lo += step {
				facts := make([]Fact, 0, step)
				for i := lo; i < lo+step; i++ {
					f := Fact{Key: value.Row{keys[i]}, After: true,
						New: value.Row{keys[i], value.NewInt(value.Int8, int64(round)), value.NewInt(value.Int8, int64(i))}}
					if round > 0 {
						f.Before, f.Old = Present, value.Row{keys[i], value.NewInt(value.Int8, 0), value.NewInt(value.Int8, int64(i))}
					}
					facts = append(facts, f)
				}
				if err := tg.StageFacts(facts, nil); err != nil {
					t.Fatal(err)
				}
				tg.Commit(nil)
			}
		}
		grown := heapInUse() - before
		reported := n*3*int64(unsafe.Sizeof(value.Value{})) + tg.Slack() + tg.IndexBytes()
		ratio := float64(reported) / float64(grown)
		t.Logf("text keys %v: %d rows counted %d bytes (slots and index %d), heap grew %d: ratio %.3f",
			textKeys, tg.Len(), reported, tg.IndexBytes(), grown, ratio)
		if math.Abs(ratio-1) > 0.15 {
			t.Errorf("text keys %v: counted %d bytes, heap grew %d: off by %.0f %%", textKeys, reported, grown, 100*(ratio-1))
		}
		runtime.KeepAlive(tg)
		runtime.KeepAlive(keys)
	}
}

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
