package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// A transaction keeps its replacements by primary key (Session.Replace,
// Tx.Replace) as a list of new rows (txn.pending) and writes them to their
// tables at once: when it commits, or before anything else of the
// transaction runs (any statement, any other typed change), so that
// whatever the transaction reads or writes next sees them. Written one
// call at a time, each replacement would pay a table update by key (the
// key's slot, the row store's slot, the old row: three cache misses in a
// table of a million rows) on the caller's goroutine; written together,
// sorted by key, the same loads are issued for a group of rows before any
// of them is used, so that their misses overlap, the table's delta comes
// out consolidated without a sort of its rows, and with two workers or
// more the rows are written by two goroutines, each a range of keys.
//
// What can fail is checked by the call, against the table as the
// transaction left it: the key's row must exist (02000), which takes one
// load of the key's slot, and the row must satisfy NOT NULL and CHECK,
// which reads the new row alone. Nothing else can fail: a replacement
// keeps its key, and a table with another UNIQUE constraint (whose key
// the row might move onto another row's) is written at once, as before.
// No replacement removes or adds a key, so one that the call found stays
// valid until the write, which only the same transaction can reach.

// pendingRow is one replacement kept in the transaction.
type pendingRow struct {
	t   *table
	row value.Row
	key int64 // the primary key's integer
}

// buffers reports whether replacements in t by primary key are kept in
// the transaction: its key is one integer column, its only unique index.
func (t *table) buffers() bool {
	if len(t.uniques) != 1 || !t.keepsRows() || t.fkeyed || t.trig != nil || t.xindexes != nil || t.excl != nil {
		return false
	}
	u := t.uniques[0]
	return u.primary && u.ints != nil && !u.pair
}

// replacePending is Session.Replace for a table that buffers: it checks
// what the replacement can fail on and keeps it in the transaction.
func (e *Engine) replacePending(t *table, row value.Row) error {
	u := t.uniques[0]
	k := row[u.cols[0]]
	if k.IsNull() {
		return noRowWithKey(t, row)
	}
	if !e.keyFound(t, k.Int()) {
		return noRowWithKey(t, row)
	}
	if t.def.PartitionBy != nil {
		if err := e.partitionCheck(t, nil, row); err != nil {
			return err
		}
	} else if e.mayFailCheck(t, row) {
		if err := t.check(row); err != nil {
			return err
		}
	}
	e.tx.pending = append(e.tx.pending, pendingRow{t: t, row: row, key: k.Int()})
	return nil
}

// mayFailCheck reports whether row, cast to t's columns, needs t's
// general check (checkRow): t has CHECK constraints, domains or generated
// columns, or a NOT NULL column of row is NULL. Otherwise the check could
// only take off a collation, which it does here, and costs more than the
// rest of a replacement's call. t's columns come from castPlan, as
// ReplaceRows reads them.
func (e *Engine) mayFailCheck(t *table, row value.Row) bool {
	plan, verify := e.castPlan(t)
	if verify || len(row) != len(plan) {
		return true
	}
	for i := range plan {
		if plan[i].notNull && row[i].IsNull() {
			return true
		}
	}
	uncollate(row)
	return false
}

// keyFound reports whether t, a table that buffers, holds a row of key
// k, for a replacement the transaction is about to keep.
func (e *Engine) keyFound(t *table, k int64) bool {
	u := t.uniques[0]
	if len(e.tx.pending) > 0 {
		// A later replacement of a batch checks its key's bit, which
		// stays in the cache, not its slot, a cache miss at 1M rows: the
		// write reads the slot at commit, a group at a time (applyPart).
		return u.ints.Has(k)
	}
	ref, ok := u.ints.Get(k)
	if !ok {
		return false
	}
	// The first replacement, perhaps the only one: the old row and its
	// slot in the row store, which the write reads, are loaded now, so
	// that their cache misses run beside the rest of the call and of the
	// caller's, not one after the other at commit. A batch's later
	// replacements are read ahead at commit instead (applyPart).
	old := t.rows.rows[ref.id] // its first and last values: a row spans two lines
	e.touched1 += uintptr(old[0].Kind()) + uintptr(old[len(old)-1].Kind())
	return true
}

func noRowWithKey(t *table, row value.Row) error {
	return pgerr.New("02000", "no row with the key of %s in table %q", failingRow(row), t.name)
}

// flushPending writes the open transaction's kept replacements to their
// tables and its log: before the writer reads, or changes anything else.
func (e *Engine) flushPending() {
	if e.tx != nil && len(e.tx.pending) > 0 {
		e.applyPending(false)
	}
}

// writeKept writes the kept replacements of the session's transaction, s
// being the writer, before a statement of the transaction: a read, under
// the read lock, then sees them.
func (s *Session) writeKept() {
	e := s.e
	// Only the writer changes its transaction: no lock to look.
	if e.tx == nil || len(e.tx.pending) == 0 {
		return
	}
	e.mu.lockChanges()
	e.flushPending()
	e.mu.Unlock()
}

// replaceBatch is the engine's scratch for writing kept replacements,
// reused from one commit to the next.
type replaceBatch struct {
	keys, buf []sortKey
	tables    []*table
	// direct lists the tables whose batch of the commit applyPending
	// built, consolidated; tableDeltas takes it and clears the list.
	direct []*table
	// whole is the commit's log as applyPending wrote it, when it wrote
	// the whole log and built every table's batch (logTables).
	whole wholeLog
	// parts are the workers' shares of a parallel write; half, the
	// second share's entries of the batch, kept up to maxReusedDelta.
	parts [2]applyPart
	half  zset.ZSet
}

// sortKey is a kept replacement's key, made to sort as unsigned, and its
// index in the transaction's list.
type sortKey struct {
	k uint64
	i int32
}

// applyPart is one goroutine's share of a table's replacements: the
// sorted keys it writes, the log's entries it fills, the consolidated
// entries it gathers and the bytes the rows add.
type applyPart struct {
	keys  []sortKey
	log   []change
	delta zset.ZSet
	bytes int64
	moved int // rows replaced in the row store's slots directly
	sink  uintptr
}

// applyPending writes the kept replacements, table by table, each sorted
// by key (in the order of the calls for one key), and empties the list.
// At a commit whose log holds nothing else (direct), each table's batch of
// the commit is built as it goes: per key, the retraction of the row the
// commit found and the assertion of the last row written, in row order as
// the key leads the rows, unless both are the same row.
func (e *Engine) applyPending(direct bool) {
	tx := e.tx
	p := tx.pending
	if len(p) == 1 {
		e.applyOne(direct)
		return
	}
	b := &e.batch
	tables := b.tables[:0]
	for i := range p {
		if i == 0 || p[i].t != p[i-1].t {
			t := p[i].t
			if !t.gathering {
				t.gathering = true // marks t listed
				tables = append(tables, t)
			}
		}
	}
	for _, t := range tables {
		t.gathering = false
	}
	b.whole.reset()
	built := direct
	read := e.readTables()
	for _, t := range tables {
		keys := b.keys[:0]
		for i := range p {
			if p[i].t == t {
				keys = append(keys, sortKey{k: uint64(p[i].key) ^ 1<<63, i: int32(i)})
			}
		}
		// The batch is built where the key leads the row, so that key
		// order is row order, and the table is read by a view.
		build := direct && t.uniques[0].cols[0] == 0 && read[t.name]
		if build {
			t.delta = e.directDelta(t, 2*len(keys))
			b.direct = append(b.direct, t)
		}
		built = built && build
		if e.writesInHalves(t, len(keys)) {
			if b.keys, b.buf = e.applyCut(t, p, keys, b.buf, build); b.keys != nil {
				continue
			}
		}
		keys, b.buf = radixSortKeys(keys, b.buf)
		b.keys = keys
		e.applyTable(t, p, keys, build)
	}
	if built {
		b.whole.set(tables, len(tx.log))
	}
	clear(tables)
	b.tables = tables[:0]
	clear(p)
	tx.pending = p[:0]
}

// applyTable writes t's replacements, keys sorted, appending their
// changes to the log (and with build, the consolidated batch to t.delta):
// on two goroutines, each a range of keys, when the engine has two
// workers, the batch is big, and t has no index that both would write.
func (e *Engine) applyTable(t *table, p []pendingRow, keys []sortKey, build bool) {
	cut := len(keys)
	if e.writesInHalves(t, len(keys)) {
		// The cut falls between two keys, so that each key's replacements
		// are written by one goroutine, in order.
		cut = len(keys) / 2
		for cut < len(keys) && keys[cut].k == keys[cut-1].k {
			cut++
		}
	}
	e.writeTable(t, p, keys, cut, nil, build)
}

// writeTable writes t's replacements, keys cut at cut in two shares of
// ascending keys, each sorted (with sortIn: each to be sorted in that
// scratch's range of its own, the second share in reverse call order
// first), on two goroutines when both shares hold keys.
func (e *Engine) writeTable(t *table, p []pendingRow, keys []sortKey, cut int, sortIn []sortKey, build bool) {
	tx := e.tx
	base := len(tx.log)
	n := 2 * len(keys)
	if cap(tx.log)-base < n {
		grown := make([]change, base, base+n+base/4)
		copy(grown, tx.log)
		tx.log = grown
	}
	tx.log = tx.log[:base+n]
	log := tx.log[base:]
	b := &e.batch
	first := &b.parts[0]
	*first = applyPart{keys: keys[:cut], log: log[:2*cut]}
	if build {
		first.delta = t.delta[:0]
	}
	if cut == len(keys) {
		t.applyPart(p, first, build)
	} else {
		second := &b.parts[1]
		*second = applyPart{keys: keys[cut:], log: log[2*cut:]}
		if build {
			second.delta = b.half[:0]
		}
		if sortIn == nil {
			e.inParallel("apply "+t.name, func() { t.applyPart(p, first, build) }, func() { t.applyPart(p, second, build) })
		} else {
			e.inParallel("apply "+t.name, func() {
				first.keys, _ = radixSortKeys(first.keys, sortIn[:cut])
				t.applyPart(p, first, build)
			}, func() {
				slices.Reverse(second.keys)
				second.keys, _ = radixSortKeys(second.keys, sortIn[cut:len(keys)])
				t.applyPart(p, second, build)
			})
		}
		first.delta = append(first.delta, second.delta...)
		t.bytes += second.bytes
		t.rows.moved += second.moved
		clear(second.delta)
		if cap(second.delta) <= maxReusedDelta {
			b.half = second.delta[:0]
		} else {
			b.half = nil
		}
	}
	t.bytes += first.bytes
	t.rows.moved += first.moved
	if build {
		t.delta = first.delta
	}
	b.parts = [2]applyPart{}
}

// applyGroup is how many replacements applyPart reads ahead: the loads of
// their keys' slots, then of their rows, are issued before any is used,
// so that their cache misses overlap.
const applyGroup = 16

// applyPart writes one share of a table's replacements: each row in place
// of its key's, under the old row's id, with the changes logged (and
// with build, the share's consolidated entries gathered). The cut between
// shares falls between keys, so a share holds each of its keys' runs
// whole.
func (t *table) applyPart(p []pendingRow, part *applyPart, build bool) {
	u := t.uniques[0]
	keys, log, delta, bytes := part.keys, part.log, part.delta, int64(0)
	plain := len(t.prefixes) == 0 && len(t.indexes) == 0 && len(t.keyOrders) == 0
	var colsBuf [8]int32
	sized := t.sizedCols(colsBuf[:0])
	var sink uintptr
	var runOld value.Row // the row found under the key of the run under way
	for g := 0; g < len(keys); g += applyGroup {
		grp := keys[g:min(g+applyGroup, len(keys))]
		// Read ahead: the slots, then the rows and the row store's slots
		// they lead to, so that the writes below find them in the cache:
		// the old rows' first and last values (a row spans two lines,
		// which RowBytes reads), and the new rows', which a big batch's
		// calls made long ago.
		var refs [applyGroup]rowRef
		for j, k := range grp {
			refs[j], _ = u.ints.Get(p[k.i].key)
		}
		var olds [applyGroup]value.Row
		for j := range grp {
			if r := refs[j]; r.id != 0 {
				olds[j] = t.rows.rows[r.id]
			}
		}
		for j, k := range grp {
			if old := olds[j]; len(old) > 0 {
				sink += uintptr(old[0].Kind()) + uintptr(old[len(old)-1].Kind())
			}
			if row := p[k.i].row; len(row) > 0 {
				sink += uintptr(row[0].Kind()) + uintptr(row[len(row)-1].Kind())
			}
		}
		for j, k := range grp {
			q := g + j
			pr := &p[k.i]
			// Read again: a replacement of the same key before it moved it.
			ref, _ := u.ints.Get(pr.key)
			old := t.rows.rows[ref.id]
			if plain {
				t.rows.rows[ref.id] = pr.row
			} else {
				t.reindex(ref.id, old, pr.row, 1)
			}
			bytes += dataflow.RowBytesAt(pr.row, sized) - dataflow.RowBytesAt(old, sized)
			log[2*q] = change{t: t, id: ref.id, row: old, w: -1}
			log[2*q+1] = change{t: t, id: ref.id, row: pr.row, w: 1}
			if !build {
				continue
			}
			if q == 0 || keys[q-1].k != k.k {
				runOld = old
			}
			if q+1 == len(keys) || keys[q+1].k != k.k {
				delta = appendChange(delta, runOld, pr.row)
			}
		}
	}
	if plain {
		// Written in the row store's slots, not through rowStore.Set:
		// counted as it counts its replaces, so that a cold start lays
		// the rows out again once they are scattered (table.layout).
		part.moved = len(keys)
	}
	// Kept, so that the reads ahead are not optimised away; the two
	// shares' fields are written once, at the end, as they share a line.
	part.delta, part.bytes, part.sink = delta, bytes, sink
}

// sizedCols appends to cols t's columns whose values may hold bytes
// outside the Value (dataflow.RowBytesAt): those whose type does not say
// that each value is held whole. A column's values are of its type's kind
// or NULL, as every write casts them.
func (t *table) sizedCols(cols []int32) []int32 {
	for i := range t.cols {
		if !dataflow.HeldWhole(t.cols[i].Type.Kind) {
			cols = append(cols, int32(i))
		}
	}
	return cols
}

// appendChange appends to a consolidated batch the change of a key's row
// from old to row, in row order: nothing if they are the same row. The
// two rows have one key, which leads them (applyPending's direct batch),
// so the order is that of the values after it: integers of one kind
// compared inline, and from the first other value on by CompareRows.
func appendChange(z zset.ZSet, old, row value.Row) zset.ZSet {
	i := 1
	for i < len(old) && i < len(row) {
		a, b := &old[i], &row[i]
		if a.Kind() != b.Kind() || !a.Kind().IsInteger() {
			break
		}
		if a.Int() != b.Int() {
			if a.Int() < b.Int() {
				return append(z, zset.Entry{Row: old, W: -1}, zset.Entry{Row: row, W: 1})
			}
			return append(z, zset.Entry{Row: row, W: 1}, zset.Entry{Row: old, W: -1})
		}
		i++
	}
	switch c := zset.CompareRows(old[i:], row[i:]); {
	case c < 0:
		return append(z, zset.Entry{Row: old, W: -1}, zset.Entry{Row: row, W: 1})
	case c > 0:
		return append(z, zset.Entry{Row: row, W: 1}, zset.Entry{Row: old, W: -1})
	}
	return z
}

// radixSortKeys sorts keys by k, stably, a digit at a time over the bits
// in which the keys differ, using buf as scratch; it returns the sorted
// keys and the scratch (either may be the other's memory). A big batch
// takes digits of 11 bits (two passes for keys below 2^22, where bytes
// take three), a small one bytes, whose counts are fewer to clear.
func radixSortKeys(keys, buf []sortKey) ([]sortKey, []sortKey) {
	if len(keys) < 2 {
		return keys, buf
	}
	var or, and uint64 = 0, ^uint64(0)
	for _, k := range keys {
		or |= k.k
		and &= k.k
	}
	differ := or ^ and // the bits that are not the same in every key
	if cap(buf) < len(keys) {
		buf = make([]sortKey, len(keys))
	}
	buf = buf[:len(keys)]
	if len(keys) >= wideDigitMin {
		return radixPasses[[1<<11 + 1]int](keys, buf, differ, 11)
	}
	return radixPasses[[1<<8 + 1]int](keys, buf, differ, 8)
}

// wideDigitMin is the number of keys from which radixSortKeys sorts by
// digits of 11 bits.
const wideDigitMin = 4096

// radixPasses is radixSortKeys's passes, by digits of bits bits, C
// their counts' array (one more than the digit's values).
func radixPasses[C [1<<11 + 1]int | [1<<8 + 1]int](keys, buf []sortKey, differ uint64, bits uint) ([]sortKey, []sortKey) {
	mask := uint64(1)<<bits - 1
	for shift := uint(0); shift < 64; shift += bits {
		if differ>>shift&mask == 0 {
			continue
		}
		var count C
		for _, k := range keys {
			count[k.k>>shift&mask+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, k := range keys {
			d := k.k >> shift & mask
			buf[count[d]] = k
			count[d]++
		}
		keys, buf = buf, keys
	}
	return keys, buf
}
