package dataflow

import (
	"sync/atomic"
	"unsafe"

	"github.com/deltaview/deltaview/internal/zset"
)

// TouchGroup is the most keys Touch takes at once, and the entries
// TouchRows loads at once: the loads of a group of that size are all in
// flight together, and all kept by the cache.
const TouchGroup = 32

// MinTouched is the smallest batch TouchRows loads ahead: the rows of a
// smaller one (a few changes) were just read by the change that made
// them.
const MinTouched = 64

// touched receives a value computed from every load of the touching
// passes, so that the compiler keeps them; nothing reads it. It is stored
// atomically: circuits run on several goroutines.
var touched atomic.Uintptr

// Touch loads into the cache what looking up each of keys (encoded as
// LookupEncoded takes them, at most TouchGroup) reads first: the key's
// run, its first entries and their first row. It changes nothing and
// returns nothing; a caller about to look up many keys one after another
// calls it on each group of them first ("group prefetching"). A lookup in
// a big arrangement is a chain of dependent cache misses (the key's slot,
// the run, its entries, a row), which one lookup after another waits for
// in turn; Touch walks the group once per link of the chain, so that each
// pass's loads, independent of each other, are in flight together.
func (a *Arrangement) Touch(keys [][]byte) {
	a.settle()
	var runs [TouchGroup]*run
	n := min(len(keys), TouchGroup)
	for k := range n {
		runs[k] = a.run(keys[k])
	}
	touchRuns(runs[:n])
}

// touchRuns loads, pass by pass, the runs, their first entries and the
// rows of the first entries.
func touchRuns(runs []*run) {
	var sink uintptr
	for _, r := range runs {
		if r != nil {
			sink += uintptr(unsafe.Pointer(unsafe.SliceData(r.small))) + uintptr(unsafe.Pointer(r.tr))
		}
	}
	for _, r := range runs {
		if r != nil && len(r.small) > 0 {
			sink += uintptr(unsafe.Pointer(r.small[0].r.p))
		}
	}
	for _, r := range runs {
		if r != nil && len(r.small) > 0 && r.small[0].r.n > 0 {
			sink += uintptr(r.small[0].r.p.Kind())
		}
	}
	touched.Store(sink)
}

// touchAhead touches the runs of the next TouchGroup keys of st, whose
// entries of one key are together, and returns the number of entries of
// these keys.
func (a *Arrangement) touchAhead(st []stagedEntry, arena []byte) int {
	var runs [TouchGroup]*run
	n, i := 0, 0
	for i < len(st) && n < TouchGroup {
		k := arena[st[i].off:st[i].end]
		runs[n] = a.run(k)
		n++
		for i++; i < len(st) && string(arena[st[i].off:st[i].end]) == string(k); i++ {
		}
	}
	touchRuns(runs[:n])
	return i
}

// TouchRows loads into the cache the rows of the group of z that starts
// at entry i (their first and last values), when i starts a group of
// TouchGroup entries of a batch of at least MinTouched: a reader of a big
// batch calls it for each entry before reading the entry. A table's old
// rows, retracted by a batch, lie anywhere in the heap, each a cache miss;
// loaded a group at a time, their misses overlap.
func TouchRows(z zset.ZSet, i int) {
	if i%TouchGroup != 0 || len(z) < MinTouched {
		return
	}
	var sink uintptr
	for _, e := range z[i:min(i+TouchGroup, len(z))] {
		if r := e.Row; len(r) > 0 {
			sink += uintptr(r[0].Kind()) + uintptr(r[len(r)-1].Kind())
		}
	}
	touched.Store(sink)
}
