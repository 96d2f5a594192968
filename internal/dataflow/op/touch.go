package op

import (
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
)

// Big batches read the memory they need a group of entries at a time
// ("group prefetching"). Reaching one row of a big state is a chain of
// dependent cache misses (for counts: the index entry at the row's home,
// then its slot, then the row held there), and so is reading the rows of
// a batch that a table's rows scattered in memory. Done entry after
// entry, the processor waits for each miss in turn. A group's entries are
// instead walked once per link of the chain, each pass loading the next
// link of every entry of the group: the loads of one pass do not depend on
// each other, so the processor has a dozen of them in flight at once, and
// the pass that does the work then finds what it reads in the cache.
// Small batches, whose rows a single change has just made or read, skip
// the passes. The rows of a batch are loaded so by dataflow.TouchRows, the
// keys of a join's lookups by Arrangement.Touch.
const (
	minGrouped = dataflow.MinTouched // the smallest batch read in groups
	groupSize  = dataflow.TouchGroup // entries per group: a pass's loads, all of which the cache keeps
)

// touched receives a value computed from every load of the touching
// passes, so that the compiler keeps them; nothing reads it. It is stored
// atomically: circuits run on several goroutines.
var touched atomic.Uintptr

// touchRow loads the cache lines of row's values that reading it reads
// first and last.
func touchRow(row value.Row) uintptr {
	if len(row) == 0 {
		return 0
	}
	return uintptr(row[0].Kind()) + uintptr(row[len(row)-1].Kind())
}
