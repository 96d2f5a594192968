package delta

import "github.com/deltaview/deltaview/internal/value"

// blocks keeps the values of the rows StageFacts writes: a few large
// allocations that many rows share, rather than one per row or per step.
// Rows are never modified once written (readers and subscribers keep
// them), so a block's space is not reused: a block whose live rows fall
// under half of it is compacted instead, its live rows copied into the
// block being filled, and the block let go. Each copy pays for a row
// freed before it, so the work stays constant per change, and at least
// half of every sealed block is rows the target holds.
type blocks struct {
	all  []*block // by id; nil: a free id
	free []int32  // free ids
	cur  int32    // the block being filled; -1: none
	// touched are the blocks that lost rows or were sealed since the
	// last compaction: the only ones that may have fallen under half.
	touched []int32
	// slack is the values of the blocks that hold no row of the target.
	slack int64
	size  int // the rows of the last block made for small steps
}

// block is one allocation of row values.
type block struct {
	vals  []value.Value // the space left
	rows  int32         // the rows it can hold
	width int32         // a row's values
	live  int32         // the target's rows in it
	slots []int32       // the slots its rows were put in; some have moved on since
}

// blockValues is the size blocks grow to, in values (a variable for the
// tests): 4096 values of 24 bytes are 96 kB. A step with more rows gets a
// block of its own size.
var blockValues = 4096

func newBlocks() blocks { return blocks{cur: -1} }

// row returns space for a row of width values, in the block being
// filled, with its block's id; need is how many rows of the step are
// still to come, this one included.
func (b *blocks) row(width, need int) (value.Row, int32) {
	if b.cur < 0 || len(b.all[b.cur].vals) < width {
		if b.cur >= 0 {
			b.touched = append(b.touched, b.cur)
		}
		// Blocks grow from 8 rows to blockValues: a small view keeps
		// small blocks.
		b.size = min(max(2*b.size, 8), max(blockValues/max(width, 1), 8))
		rows := max(b.size, min(need, 1<<16))
		b.cur = b.add(&block{vals: make([]value.Value, rows*width), rows: int32(rows), width: int32(width), slots: make([]int32, 0, rows)})
		b.slack += int64(rows * width)
	}
	k := b.all[b.cur]
	r := k.vals[:width:width]
	k.vals = k.vals[width:]
	return r, b.cur
}

func (b *blocks) add(k *block) int32 {
	if n := len(b.free); n > 0 {
		id := b.free[n-1]
		b.free = b.free[:n-1]
		b.all[id] = k
		return id
	}
	b.all = append(b.all, k)
	return int32(len(b.all) - 1)
}

// put records that slot holds a row of block id (-1: none of them); the
// target's slotRow says so too.
func (b *blocks) put(slot int, id int32) {
	if id >= 0 {
		k := b.all[id]
		k.live++
		k.slots = append(k.slots, int32(slot))
		b.slack -= int64(k.width)
	}
}

// drop records that a row of block id (-1: none of them) left its slot.
func (b *blocks) drop(id int32) {
	if id >= 0 {
		b.all[id].live--
		b.slack += int64(b.all[id].width)
		b.touched = append(b.touched, id)
	}
}

// move records that the row of slot from, of block id, moved to slot to.
func (b *blocks) move(from, to int, id int32) {
	if id < 0 {
		return
	}
	// The last entry of from is its row's: earlier ones are of rows
	// that left it.
	k := b.all[id]
	for i := len(k.slots) - 1; i >= 0; i-- {
		if k.slots[i] == int32(from) {
			k.slots[i] = int32(to)
			return
		}
	}
}

// compact lets go of the touched blocks that are sealed and under half
// full, copying their live rows (rows[slot] for their slots) into the
// block being filled, which may seal it and touch it in turn.
func (b *blocks) compact(rows []slotRow) {
	for i := 0; i < len(b.touched); i++ {
		b.compactOne(b.touched[i], rows)
	}
	clear(b.touched)
	b.touched = b.touched[:0]
	if cap(b.touched) > 256 {
		b.touched = nil // a bulk commit's
	}
}

func (b *blocks) compactOne(id int32, rows []slotRow) {
	if id == b.cur {
		return
	}
	k := b.all[id]
	if k == nil || 2*k.live >= k.rows {
		return
	}
	for _, s := range k.slots {
		if int(s) >= len(rows) || rows[s].blk != id {
			continue // a slot whose row has moved on
		}
		r := rows[s].row()
		c, cid := b.row(len(r), int(k.live))
		copy(c, r)
		rows[s] = keptRow(c, cid)
		b.put(int(s), cid)
	}
	// Freed after the copies, so that they cannot take its id.
	b.slack -= int64(k.rows-k.live) * int64(k.width)
	b.all[id] = nil
	b.free = append(b.free, id)
}
