package engine

// intIDs maps the keys of a unique index on one integer column to row ids.
// Dense keys (serial and identity columns, most integer primary keys) are
// kept in an array indexed by key-base: a lookup is one cache miss and a
// key costs 8 bytes, where a hash map costs two misses and about 30 bytes.
// Sparse keys are kept in a map. The array is kept while it is at least a
// quarter full, and a map becomes an array once the keys would fill one
// by half, so a table going back and forth does not convert each time.
type intIDs struct {
	dense []uint64 // dense[k-base] = id, 0 for none (row ids start at 1); nil when sparse
	base  int64
	n     int              // keys in dense
	m     map[int64]uint64 // the keys, when sparse
	check int              // len(m) at which to consider an array again
}

const (
	minDense = 64      // the fewest keys kept in an array
	maxDense = 1 << 62 // keys in an array are within ±maxDense, so spans do not overflow
)

func newIntIDs() *intIDs { return &intIDs{m: map[int64]uint64{}, check: minDense} }

func (x *intIDs) get(k int64) (uint64, bool) {
	if x.dense != nil {
		if i := uint64(k - x.base); i < uint64(len(x.dense)) && x.dense[i] != 0 {
			return x.dense[i], true
		}
		return 0, false
	}
	id, ok := x.m[k]
	return id, ok
}

func (x *intIDs) set(k int64, id uint64) {
	if x.dense != nil {
		if i := uint64(k - x.base); i < uint64(len(x.dense)) {
			if x.dense[i] == 0 {
				x.n++
			}
			x.dense[i] = id
			return
		}
		if k < -maxDense || k > maxDense || !x.extend(k) {
			x.toMap()
			x.m[k] = id
			return
		}
		x.dense[k-x.base] = id
		x.n++
		return
	}
	x.m[k] = id
	if len(x.m) >= x.check {
		x.check = 2 * len(x.m)
		x.toDense()
	}
}

// drop removes k if it maps to id.
func (x *intIDs) drop(k int64, id uint64) {
	if x.dense == nil {
		if x.m[k] == id {
			delete(x.m, k)
			if 4*len(x.m) < x.check {
				x.check = max(minDense, 2*len(x.m))
			}
		}
		return
	}
	if i := uint64(k - x.base); i < uint64(len(x.dense)) && x.dense[i] == id {
		x.dense[i] = 0
		x.n--
		if x.n < len(x.dense)/4 {
			x.toMap()
		}
	}
}

func (x *intIDs) len() int {
	if x.dense != nil {
		return x.n
	}
	return len(x.m)
}

func (x *intIDs) clear() { *x = *newIntIDs() }

// reserve makes room for n more keys in a map; an array grows as keys
// come.
func (x *intIDs) reserve(n int) {
	if x.dense != nil || len(x.m) < minDense {
		return // an array, or too few keys yet to tell
	}
	m := make(map[int64]uint64, len(x.m)+n)
	for k, id := range x.m {
		m[k] = id
	}
	x.m = m
}

// extend grows the array to cover k, doubling its span towards k, unless
// it would then be less than half full.
func (x *intIDs) extend(k int64) bool {
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
	d := make([]uint64, hi-lo)
	copy(d[x.base-lo:], x.dense)
	x.dense, x.base = d, lo
	return true
}

// toDense moves the map's keys to an array if they would fill it by half.
func (x *intIDs) toDense() {
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
	x.dense, x.base, x.n = make([]uint64, 2*(hi-lo+1)), lo, len(x.m)
	for k, id := range x.m {
		x.dense[k-lo] = id
	}
	x.m = nil
}

// toMap moves the array's keys to a map.
func (x *intIDs) toMap() {
	x.m = make(map[int64]uint64, x.n)
	for i, id := range x.dense {
		if id != 0 {
			x.m[x.base+int64(i)] = id
		}
	}
	x.dense, x.n = nil, 0
	x.check = max(minDense, 2*len(x.m))
}
