// Package intmap provides a map from int64 keys that keeps dense keys in
// an array.
package intmap

// Map maps int64 keys to values; the zero V means no value. Dense keys
// (serial and identity columns, most integer keys) are kept in an array
// indexed by key-base: a lookup is one cache miss and a key costs one V,
// where a hash map costs two misses and about three times the space.
// Sparse keys are kept in a map. The array is kept while it is at least a
// quarter full, and a map becomes an array once the keys would fill one by
// half, so keys going back and forth do not convert each time. The zero
// Map is not ready: use New.
type Map[V comparable] struct {
	dense []V // dense[k-base], the zero V for none; nil when sparse
	base  int64
	n     int         // keys in dense
	m     map[int64]V // the keys, when sparse
	check int         // len(m) at which to consider an array again
	// has, with NewPresence, is a bit per element of dense, set when it
	// holds a value: Has reads it, an eighth of a byte a key that stays
	// in the cache where dense does not (see presence.go).
	has      []uint64
	presence bool
}

const (
	minDense = 64      // the fewest keys kept in an array
	maxDense = 1 << 62 // keys in an array are within ±maxDense, so spans do not overflow
)

// New returns an empty map.
func New[V comparable]() *Map[V] { return &Map[V]{m: map[int64]V{}, check: minDense} }

// Get returns k's value.
func (x *Map[V]) Get(k int64) (V, bool) {
	var zero V
	if x.dense != nil {
		if i := uint64(k - x.base); i < uint64(len(x.dense)) && x.dense[i] != zero {
			return x.dense[i], true
		}
		return zero, false
	}
	v, ok := x.m[k]
	return v, ok
}

// Set stores v, which must not be the zero V, under k.
func (x *Map[V]) Set(k int64, v V) {
	var zero V
	if x.dense != nil {
		if i := uint64(k - x.base); i < uint64(len(x.dense)) {
			if x.dense[i] == zero {
				x.n++
				x.mark(i)
			}
			x.dense[i] = v
			return
		}
		if k < -maxDense || k > maxDense || !x.extend(k) {
			x.toMap()
			x.m[k] = v
			return
		}
		x.dense[k-x.base] = v
		x.n++
		x.mark(uint64(k - x.base))
		return
	}
	x.m[k] = v
	if len(x.m) >= x.check {
		x.check = 2 * len(x.m)
		x.toDense()
	}
}

// Delete removes k if it maps to v.
func (x *Map[V]) Delete(k int64, v V) {
	var zero V
	if x.dense == nil {
		if got, ok := x.m[k]; ok && got == v {
			delete(x.m, k)
			if 4*len(x.m) < x.check {
				x.check = max(minDense, 2*len(x.m))
			}
		}
		return
	}
	if i := uint64(k - x.base); i < uint64(len(x.dense)) && x.dense[i] == v && v != zero {
		x.dense[i] = zero
		x.unmark(i)
		x.n--
		if x.n < len(x.dense)/4 {
			x.toMap()
		}
	}
}

// Dense reports whether the keys are kept in an array: a Set of a key
// already held then writes its element alone, so that goroutines may set
// distinct held keys at once.
func (x *Map[V]) Dense() bool { return x.dense != nil }

// Len returns the number of keys.
func (x *Map[V]) Len() int {
	if x.dense != nil {
		return x.n
	}
	return len(x.m)
}

// Clear removes every key.
func (x *Map[V]) Clear() { *x = Map[V]{m: map[int64]V{}, check: minDense, presence: x.presence} }

// Reserve makes room for n more keys in a map; an array grows as keys
// come.
func (x *Map[V]) Reserve(n int) {
	if x.dense != nil || len(x.m) < minDense {
		return // an array, or too few keys yet to tell
	}
	m := make(map[int64]V, len(x.m)+n)
	for k, v := range x.m {
		m[k] = v
	}
	x.m = m
}

// extend grows the array to cover k, doubling its span towards k, unless
// it would then be less than half full.
func (x *Map[V]) extend(k int64) bool {
	lo, hi := x.base, x.base+int64(len(x.dense)) // [lo, hi)
	span := int64(len(x.dense))
	if k >= hi {
		if k-lo+1 > 2*int64(x.n+1) {
			return false
		}
		hi = max(k+1, lo+2*span)
	} else {
		if hi-k > 2*int64(x.n+1) {
			return false
		}
		lo = min(k, hi-2*span)
	}
	d := make([]V, hi-lo)
	copy(d[x.base-lo:], x.dense)
	x.dense, x.base = d, lo
	x.remark()
	return true
}

// toDense moves the map's keys to an array if they would fill it by half.
func (x *Map[V]) toDense() {
	lo, hi := int64(0), int64(0)
	first := true
	for k := range x.m {
		if first || k < lo {
			lo = k
		}
		if first || k > hi {
			hi = k
		}
		first = false
	}
	if first || lo < -maxDense || hi > maxDense || hi-lo+1 > 2*int64(len(x.m)) {
		return
	}
	x.dense, x.base, x.n = make([]V, 2*(hi-lo+1)), lo, len(x.m)
	for k, v := range x.m {
		x.dense[k-lo] = v
	}
	x.m = nil
	x.remark()
}

// toMap moves the array's keys to a map.
func (x *Map[V]) toMap() {
	var zero V
	x.m = make(map[int64]V, x.n)
	for i, v := range x.dense {
		if v != zero {
			x.m[x.base+int64(i)] = v
		}
	}
	x.dense, x.n, x.has = nil, 0, nil
	x.check = max(minDense, 2*len(x.m))
}

// All calls fn for each key and value, in no order, until fn returns
// false.
func (x *Map[V]) All(fn func(k int64, v V) bool) {
	var zero V
	if x.dense == nil {
		for k, v := range x.m {
			if !fn(k, v) {
				return
			}
		}
		return
	}
	for i, v := range x.dense {
		if v != zero && !fn(x.base+int64(i), v) {
			return
		}
	}
}

// Bytes approximates the memory the map holds: the array, or the hash
// map's slots at its 7/8 load with half again of slack for its doubling.
func (x *Map[V]) Bytes(valueSize int64) int64 {
	if x.dense != nil {
		return int64(len(x.dense))*valueSize + int64(len(x.has))*8
	}
	return int64(len(x.m)) * (8 + valueSize + 1) * 8 / 7 * 3 / 2
}
