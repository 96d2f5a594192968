package delta

import (
	"github.com/deltaview/deltaview/internal/value"
)

// Index keeps one value per key (a row of key values, in key order) and
// finds it by the 64-bit hash of the key's encoding, comparing the key on
// every hit: a lookup encodes the key into a reused buffer and hashes it,
// allocating nothing, where a map keyed by the encoded string allocates
// the string of every key kept and hashes it again at each lookup. The
// keys are kept as given (a slice of a row kept elsewhere costs nothing);
// they must not change while indexed. A key whose hash another key holds
// already goes to an overflow map by its encoding. The zero Index is
// ready to use.
type Index[V any] struct {
	m    map[uint64]indexEntry[V]
	over map[string]indexEntry[V] // keys whose hash another key holds; nil when none
	buf  []byte
	// hash is the hash of an encoded key; tests make it collide.
	hash func([]byte) uint64
}

type indexEntry[V any] struct {
	key value.Row
	v   V
}

// encode encodes key into the reused buffer and returns it with its hash.
func (x *Index[V]) encode(key value.Row) ([]byte, uint64) {
	b := value.AppendRowKey(x.buf[:0], key)
	x.buf = b
	if cap(b) > 1<<12 {
		x.buf = nil // a huge key's buffer is not kept
	}
	if x.hash != nil {
		return b, x.hash(b)
	}
	return b, value.HashKey(b)
}

// Get returns key's value.
func (x *Index[V]) Get(key value.Row) (V, bool) {
	enc, h := x.encode(key)
	e, ok := x.m[h]
	if ok && value.CompareRows(e.key, key) == 0 {
		return e.v, true
	}
	if ok && len(x.over) > 0 {
		if e, ok := x.over[string(enc)]; ok {
			return e.v, true
		}
	}
	var zero V
	return zero, false
}

// Set keeps v as key's value.
func (x *Index[V]) Set(key value.Row, v V) {
	enc, h := x.encode(key)
	if x.m == nil {
		x.m = map[uint64]indexEntry[V]{}
	}
	e, ok := x.m[h]
	if !ok || value.CompareRows(e.key, key) == 0 {
		x.m[h] = indexEntry[V]{key: key, v: v}
		return
	}
	if x.over == nil {
		x.over = map[string]indexEntry[V]{}
	}
	x.over[string(enc)] = indexEntry[V]{key: key, v: v}
}

// Delete removes key, if present.
func (x *Index[V]) Delete(key value.Row) {
	enc, h := x.encode(key)
	e, ok := x.m[h]
	if !ok {
		return
	}
	if value.CompareRows(e.key, key) != 0 {
		delete(x.over, string(enc))
		return
	}
	delete(x.m, h)
	if len(x.over) == 0 {
		return
	}
	// A key of the same hash waiting in the overflow takes the place.
	for k, o := range x.over {
		if _, oh := x.encode(o.key); oh == h {
			x.m[h] = o
			delete(x.over, k)
			return
		}
	}
}

// Len returns the number of keys.
func (x *Index[V]) Len() int { return len(x.m) + len(x.over) }

// All calls fn for each key and value, in no order, until fn returns
// false.
func (x *Index[V]) All(fn func(key value.Row, v V) bool) {
	for _, e := range x.m {
		if !fn(e.key, e.v) {
			return
		}
	}
	for _, e := range x.over {
		if !fn(e.key, e.v) {
			return
		}
	}
}

// Clear removes every key. A map that grew large is let go: clearing or
// iterating a map costs the size it once had.
func (x *Index[V]) Clear() {
	if len(x.m) > indexReuse {
		x.m = nil
	} else {
		clear(x.m)
	}
	x.over = nil
}

// IndexEntryBytes approximates the memory one key of an Index takes
// beyond its value: the hash, the key's slice header, the map's slack.
const IndexEntryBytes = 8 + 24 + 16
