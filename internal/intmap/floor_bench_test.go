package intmap

import (
	"math/bits"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

// BenchmarkFloor measures the least a replacement by key can cost at 1M
// keys on this machine, against which a table's write is measured
// (docs/performance.md, "The single change's floor, fifth round"): a
// random key's update in Go's map and in a dense Map, and the table's
// write reduced to its memory traffic (the key's slot read, the old row's
// two lines read, the key's slot and the row store's slot written), one
// replacement at a time (the loads of the next overlapping this one's,
// as the processor runs ahead; and alone, the next key waiting for this
// row, as a change alone waits) and sixteen at a time with their loads issued first (as a
// batch's write reads ahead). cpu-ns/op is the thread's CPU time: on a
// machine shared with other work the wall clock measures the load.
func BenchmarkFloor(b *testing.B) {
	const n = 1 << 20
	for _, name := range []string{"gomap", "dense", "replace", "alone", "replace16"} {
		b.Run(name+"/keys="+strconv.Itoa(n), func(b *testing.B) {
			f := newFloorTable(n)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu0 int64
			b.ResetTimer()
			cpu0 = floorCPU()
			switch name {
			case "gomap":
				m := make(map[int64]uint64, n)
				for k := range int64(n) {
					m[k] = uint64(k) + 1
				}
				b.ResetTimer()
				cpu0 = floorCPU()
				for i := range b.N {
					m[int64(f.next())] = uint64(i) + 1
				}
			case "dense":
				for i := range b.N {
					f.slots.Set(int64(f.next()), floorRef{id: uint64(i) + 1})
				}
			case "replace":
				for range b.N {
					f.replace(f.next())
				}
			case "alone":
				// The next key waits for this replacement's old row, as a
				// change alone's call does: thousands of instructions
				// apart, no two changes' misses overlap.
				for range b.N {
					f.replace(f.next() + f.sink&f.zero)
				}
			case "replace16":
				var keys [16]uint64
				for i := 0; i < b.N; i += len(keys) {
					for j := range keys {
						keys[j] = f.next()
					}
					f.replaceGroup(&keys)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(floorCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			if f.sink == 42 {
				b.Log(f.sink)
			}
		})
	}
}

// floorRow is a row of the harness's table laid out as the engine lays it:
// five values of 24 bytes and a text's bytes, two cache lines and more.
type floorRow [18]uint64

// floorRef is a key's slot: the row's id in the row store and its address.
type floorRef struct {
	id  uint64
	row *floorRow
}

// floorTable is a table of n rows by key: the key's slots in a dense Map,
// the rows as separate allocations, the row store's slots by id.
type floorTable struct {
	slots *Map[floorRef]
	store []*floorRow
	spare *floorRow // the next replacement's new row: the last one's old row
	rng   uint64
	n     uint64
	sink  uint64
	zero  uint64 // 0, which the compiler cannot know: a dependence
}

func newFloorTable(n int) *floorTable {
	f := &floorTable{slots: New[floorRef](), store: make([]*floorRow, n), rng: 0x9e3779b97f4a7c15, n: uint64(n)}
	f.slots.Reserve(n)
	for k := range n {
		r := &floorRow{0: uint64(k)}
		f.store[k] = r
		f.slots.Set(int64(k), floorRef{id: uint64(k), row: r})
	}
	f.spare = &floorRow{}
	return f
}

// next draws a key (xorshift64*, scaled to n without division).
func (f *floorTable) next() uint64 {
	f.rng ^= f.rng >> 12
	f.rng ^= f.rng << 25
	f.rng ^= f.rng >> 27
	hi, _ := bits.Mul64(f.rng*0x2545f4914f6cdd1d, f.n)
	return hi
}

// replace writes a new row in place of key k's: it reads the old row's
// first and last words (its retraction's values and its size) and writes
// the key's slot and the row store's slot.
func (f *floorTable) replace(k uint64) {
	ref, _ := f.slots.Get(int64(k))
	old := ref.row
	f.sink += old[0] + old[len(old)-1]
	row := f.spare
	row[0], row[1] = k, f.rng
	f.spare = old
	f.slots.Set(int64(k), floorRef{id: ref.id, row: row})
	f.store[ref.id] = row
}

// replaceGroup is replace for sixteen keys, their slots and then their
// rows and store slots loaded before any is written.
func (f *floorTable) replaceGroup(keys *[16]uint64) {
	var refs [16]floorRef
	for j, k := range keys {
		refs[j], _ = f.slots.Get(int64(k))
	}
	for _, r := range refs {
		f.sink += r.row[0] + r.row[len(r.row)-1]
		if f.store[r.id] == nil {
			f.sink++
		}
	}
	for _, k := range keys {
		f.replace(k)
	}
}

// floorCPU returns the calling thread's CPU time in ns (Linux).
func floorCPU() int64 {
	var ru syscall.Rusage
	const rusageThread = 1
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
