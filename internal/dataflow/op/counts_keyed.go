package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Keyed counts hash their rows by a few columns, a key that the plan shows
// no two rows share (a table's primary key carried through filters,
// projections and joins on the other side's key), instead of by the whole
// row. Rows are still told apart by the whole row, so the key is a
// choice of hash, never of meaning: counts keyed by columns that repeat
// hold the same rows as counts that are not. What it saves: a hash of one
// integer for a row of several columns, text among them; and a change, the
// retraction of a row and the assertion of its replacement, which share
// the key, has one home in the index for both rows, so that the second
// probe reads the cache line the first one loaded, and a consolidated
// batch (its rows sorted, so a key leading the row puts the pair side by
// side) swaps the new row into the old one's slot without touching the
// index (addPair).
//
// Should rows of one key pile up all the same (a key whose constraint was
// dropped while the view lived), a probe that meets more than longKey rows
// of its hash marks the counts long, and their owner hashes them by the
// whole row again (unkey) before the next step, or before a load ends:
// the cost of a wrong key is then bounded, a step's probes and one
// rebuild of the index.

// longKey is the most rows of one hash a probe passes before the counts
// are marked long.
const longKey = 32

// keyBy makes empty counts hash their rows by the columns key.
func (c *counts) keyBy(key []int) {
	if c.live != 0 || len(c.slots) != 0 {
		return
	}
	c.key = key
}

// hashOf returns r's hash in the index: its key's, or the whole row's.
// Hashes are cut to 32 bits: an index entry is 8 bytes, the hash's 32
// bits and the slot's, and the index's homes are the hashes' low bits.
func (c *counts) hashOf(r value.Row) uint64 {
	if c.key == nil {
		return rowHash(r)
	}
	return uint64(uint32(keyHash(r, c.key)))
}

// rowHash is a whole row's hash, cut to 32 bits.
func rowHash(r value.Row) uint64 { return uint64(uint32(value.HashRow(r))) }

// keyHash hashes r's columns key. Equal rows (zset.CompareRows) have
// equal values in every column, so equal hashes: an integer by its value
// through a mixer (the ids of a table are dense, and the index's home is
// the hash's low bits), any other value by value.HashValue.
func keyHash(r value.Row, key []int) uint64 {
	h := uint64(len(key))
	for _, k := range key {
		if k >= len(r) {
			continue // not a column of r: no part of its hash
		}
		v := r[k]
		var x uint64
		if value.KeyIsInt(v.Kind()) {
			x = uint64(v.Int())
		} else {
			x = value.HashValue(v)
		}
		h = value.Mix64(h*0x9e3779b97f4a7c15 ^ x)
	}
	return h
}

// unkey makes keyed counts hash their rows whole again, rebuilding the
// index; the slots stay where they are.
func (c *counts) unkey() {
	c.key, c.long = nil, false
	c.index = slotIndex{}
	c.index.reserve(c.live)
	for i := range c.slots {
		if s := &c.slots[i]; s.p != nil {
			c.index.insert(rowHash(s.rowOf()), int32(i))
		}
	}
}

// addPair applies z[k] and z[k+1] (with at[k] and at[k+1], as addAll
// has them) in one: when they share a hash in keyed counts, and one is
// the retraction of a row held once and the other the assertion of a row
// not held, the new row takes the old one's slot, and the index, whose
// entry holds the hash and the slot, does not change. It reports whether
// it did.
func (c *counts) addPair(z zset.ZSet, at []slotRef, k int) bool {
	if c.key == nil || k+1 >= len(z) || at[k].h != at[k+1].h {
		return false
	}
	old, add := k, k+1
	if z[old].W > 0 {
		old, add = add, old
	}
	i := at[old].i
	if i < 0 || at[add].i >= 0 || z[add].W <= 0 || c.slots[i].n+z[old].W != 0 {
		return false
	}
	s := &c.slots[i]
	c.bytes += dataflow.RowBytes(z[add].Row) - dataflow.RowBytes(s.rowOf())
	c.total += z[old].W + z[add].W
	*s = slotOf(z[add].Row, z[add].W)
	return true
}
