package intmap

// NewPresence returns an empty map that keeps, beside its array, a bit
// per key telling whether the key holds a value, for Has. A lookup in an
// array of a million 16-byte values is a cache miss; their bits, 128 KB,
// stay in the processor's second-level cache while a batch checks its
// keys, and the miss is left to the write that needs the value.
func NewPresence[V comparable]() *Map[V] {
	x := New[V]()
	x.presence = true
	return x
}

// Has reports whether k holds a value: Get's second result, read from
// the bits of a map made by NewPresence.
func (x *Map[V]) Has(k int64) bool {
	if x.dense == nil {
		_, ok := x.m[k]
		return ok
	}
	i := uint64(k - x.base)
	if i >= uint64(len(x.dense)) {
		return false
	}
	if x.has != nil {
		return x.has[i>>6]&(1<<(i&63)) != 0
	}
	var zero V
	return x.dense[i] != zero
}

// mark records that dense[i] holds a value.
func (x *Map[V]) mark(i uint64) {
	if x.has != nil {
		x.has[i>>6] |= 1 << (i & 63)
	}
}

// unmark records that dense[i] holds none.
func (x *Map[V]) unmark(i uint64) {
	if x.has != nil {
		x.has[i>>6] &^= 1 << (i & 63)
	}
}

// remark builds the bits of a new array from its values.
func (x *Map[V]) remark() {
	if !x.presence {
		return
	}
	var zero V
	x.has = make([]uint64, (len(x.dense)+63)/64)
	for i, v := range x.dense {
		if v != zero {
			x.has[i>>6] |= 1 << (uint(i) & 63)
		}
	}
}
