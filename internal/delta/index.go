package delta

import (
	"github.com/deltaview/deltaview/internal/intmap"
	"github.com/deltaview/deltaview/internal/value"
)

// Index keeps one value per key (a row of key values, in key order) and
// finds it by the 64-bit hash of the key's encoding, comparing the key on
// every hit: a lookup encodes the key into a reused buffer and hashes it,
// allocating nothing, where a map keyed by the encoded string allocates
// the string of every key kept and hashes it again at each lookup. The
// keys are kept as given (a slice of a row kept elsewhere costs nothing);
// they must not change while indexed. A key whose hash another key holds
// already goes to an overflow map by its encoding. Keys of one integer
// column (integers, dates, timestamps) are kept by their value instead,
// in an intmap.Map: no encoding, no hash, and dense keys take one array
// lookup. The zero Index is ready to use.
type Index[V any] struct {
	// KeyOf, when set, returns the key a value is kept under: the index
	// then keeps no key of its own, and a value's key may be replaced by
	// an equal one (a row replacing another) without telling it.
	KeyOf func(V) value.Row
	m     map[uint64]indexEntry[V]
	over  map[string]indexEntry[V] // keys whose hash another key holds; nil when none
	buf   []byte
	// ints maps the keys of one integer column, of kind intKind (set by
	// the first key an empty index takes), to 1 + the position of their
	// entry in vals; free lists the positions free in vals.
	ints    *intmap.Map[int32]
	intKind value.Kind
	vals    []indexEntry[V]
	free    []int32
	// hash is the hash of an encoded key; tests make it collide.
	hash func([]byte) uint64
}

type indexEntry[V any] struct {
	key value.Row // nil with KeyOf
	v   V
}

func (x *Index[V]) keyOf(e indexEntry[V]) value.Row {
	if x.KeyOf != nil {
		return x.KeyOf(e.v)
	}
	return e.key
}

func (x *Index[V]) entry(key value.Row, v V) indexEntry[V] {
	if x.KeyOf != nil {
		return indexEntry[V]{v: v}
	}
	return indexEntry[V]{key: key, v: v}
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

// isInt reports whether key is kept in ints.
func (x *Index[V]) isInt(key value.Row) bool {
	return x.ints != nil && len(key) == 1 && key[0].Kind() == x.intKind
}

// Get returns key's value.
func (x *Index[V]) Get(key value.Row) (V, bool) {
	if x.isInt(key) {
		if p, ok := x.ints.Get(key[0].Int()); ok {
			return x.vals[p-1].v, true
		}
		var zero V
		return zero, false
	}
	enc, h := x.encode(key)
	e, ok := x.m[h]
	if ok && value.CompareRows(x.keyOf(e), key) == 0 {
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
	if x.ints == nil && x.Len() == 0 && len(key) == 1 && value.KeyIsInt(key[0].Kind()) {
		x.ints, x.intKind = intmap.New[int32](), key[0].Kind()
	}
	if x.isInt(key) {
		k := key[0].Int()
		if p, ok := x.ints.Get(k); ok {
			x.vals[p-1] = x.entry(key, v)
			return
		}
		var p int32
		if n := len(x.free); n > 0 {
			p = x.free[n-1]
			x.free = x.free[:n-1]
			x.vals[p] = x.entry(key, v)
		} else {
			p = int32(len(x.vals))
			x.vals = append(x.vals, x.entry(key, v))
		}
		x.ints.Set(k, p+1)
		return
	}
	enc, h := x.encode(key)
	if x.m == nil {
		x.m = map[uint64]indexEntry[V]{}
	}
	e, ok := x.m[h]
	if !ok || value.CompareRows(x.keyOf(e), key) == 0 {
		x.m[h] = x.entry(key, v)
		return
	}
	if x.over == nil {
		x.over = map[string]indexEntry[V]{}
	}
	x.over[string(enc)] = x.entry(key, v)
}

// Delete removes key, if present.
func (x *Index[V]) Delete(key value.Row) {
	if x.isInt(key) {
		k := key[0].Int()
		if p, ok := x.ints.Get(k); ok {
			x.ints.Delete(k, p)
			x.vals[p-1] = indexEntry[V]{}
			x.free = append(x.free, p-1)
		}
		return
	}
	enc, h := x.encode(key)
	e, ok := x.m[h]
	if !ok {
		return
	}
	if value.CompareRows(x.keyOf(e), key) != 0 {
		delete(x.over, string(enc))
		return
	}
	delete(x.m, h)
	if len(x.over) == 0 {
		return
	}
	// A key of the same hash waiting in the overflow takes the place.
	for k, o := range x.over {
		if _, oh := x.encode(x.keyOf(o)); oh == h {
			x.m[h] = o
			delete(x.over, k)
			return
		}
	}
}

// Len returns the number of keys.
func (x *Index[V]) Len() int {
	n := len(x.m) + len(x.over)
	if x.ints != nil {
		n += x.ints.Len()
	}
	return n
}

// All calls fn for each key and value, in no order, until fn returns
// false.
func (x *Index[V]) All(fn func(key value.Row, v V) bool) {
	if x.ints != nil {
		stop := false
		x.ints.All(func(_ int64, p int32) bool {
			e := x.vals[p-1]
			stop = !fn(x.keyOf(e), e.v)
			return !stop
		})
		if stop {
			return
		}
	}
	for _, e := range x.m {
		if !fn(x.keyOf(e), e.v) {
			return
		}
	}
	for _, e := range x.over {
		if !fn(x.keyOf(e), e.v) {
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
	if x.ints != nil {
		x.ints, x.intKind = nil, 0
		if len(x.vals) > indexReuse {
			x.vals, x.free = nil, nil
		} else {
			clear(x.vals)
			x.vals, x.free = x.vals[:0], x.free[:0]
		}
	}
}

// IndexEntryBytes approximates the memory one key of an Index takes
// beyond its value: the hash, the key's slice header, the map's slack.
const IndexEntryBytes = 8 + 24 + 16
