package dataflow

import (
	"cmp"
	"hash/maphash"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// stageSort holds sortStaged's buffers between calls.
type stageSort struct {
	s   zset.PrefixSorter
	tmp []stagedEntry
}

var stageSorts = sync.Pool{New: func() any { return new(stageSort) }}

var keySeed = maphash.MakeSeed()

// sortStaged orders a big staged delta so that each key's entries are
// together, in the run's order (Commit then reaches each run once and walks
// its tree left to right): by radix on a 64-bit summary of each entry,
// computed once, and by comparison only where summaries tie. The summary is
// the entry's k0 when the arrangement has no key (one run), the integer of
// an integer key, and a hash of any other key's encoding, so that keys are
// grouped, not ordered. Within a key, entries compare by k0, then by the
// sort values Stage kept (none when there are no sort expressions), then
// by row, except where looseTies: there, entries of one key and one k0 are
// left in the order of their weights, retractions first. Comparing their
// rows would read two rows from memory (in a big batch, long out of the
// cache) for an order only a B-tree run needs, and apply finds such
// entries from the tree's root instead. Retractions first, a table's
// replaced row leaves its run before the new row, whose k0 it shares (its
// key's), is looked for, so that neither search reads a row.
func (a *Arrangement) sortStaged() {
	st, arena, vals := a.staged, a.arena, a.svals
	ns := 0
	if len(vals) > 0 {
		ns = len(a.spec.Sort)
	}
	ss := stageSorts.Get().(*stageSort)
	noKey := len(a.spec.Key) == 0
	prefix := func(i int) (uint8, uint64, bool) {
		s := &st[i]
		switch {
		case noKey:
			return 0, s.k0, false
		case a.ints != nil:
			if n, ok := value.IntKey(arena[s.off:s.end]); ok {
				return 0, uint64(n) ^ 1<<63, false
			}
			return 1, maphash.Bytes(keySeed, arena[s.off:s.end]), false // a NULL key
		}
		return 0, maphash.Bytes(keySeed, arena[s.off:s.end]), false
	}
	loose := a.looseTies()
	tie := func(i, j int) int {
		x, y := &st[i], &st[j]
		if c := strings.Compare(unsafeString(arena[x.off:x.end]), unsafeString(arena[y.off:y.end])); c != 0 {
			return c
		}
		if x.k0 != y.k0 {
			if x.k0 < y.k0 {
				return -1
			}
			return 1
		}
		for j := range ns {
			if c := compareSort(&a.spec.Sort[j], vals[x.vi+j], vals[y.vi+j]); c != 0 {
				return c
			}
		}
		if loose {
			return cmp.Compare(x.w, y.w)
		}
		return zset.CompareRows(x.row, y.row)
	}
	perm := ss.s.Sort(len(st), false, prefix, tie)
	tmp := append(ss.tmp[:0], st...)
	for j, i := range perm {
		st[j] = tmp[i]
	}
	clear(tmp) // the pool keeps no rows alive
	ss.tmp = tmp[:0]
	if cap(ss.tmp) > maxReusedBatch {
		ss.tmp, ss.s = nil, zset.PrefixSorter{}
	}
	stageSorts.Put(ss)
}

// looseTies reports whether a sorted batch leaves the entries of one key
// and one k0 in no particular order among themselves (see sortStaged):
// when the arrangement has no sort expressions, k0 summarising the row's
// first value.
func (a *Arrangement) looseTies() bool { return len(a.spec.Sort) == 0 }
