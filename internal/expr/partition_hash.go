package expr

import (
	"math/bits"

	"github.com/deltaview/deltaview/internal/value"
)

// partitionSeed is PostgreSQL's HASH_PARTITION_SEED: the seed of every
// key column's extended hash, so that a row lands in the partition
// PostgreSQL puts it in.
const partitionSeed = 0x7A5B22367996DCFD

// HashPartitionable reports whether a hash partition key can be of type
// k: the types whose PostgreSQL hash functions are reproduced here.
func HashPartitionable(k value.Kind) bool {
	switch k {
	case value.Int2, value.Int4, value.Int8, value.Date, value.Bool, value.Text, value.Varchar:
		return true
	}
	return false
}

// HashPartitionRemainder is the remainder of key's row hash by modulus,
// as PostgreSQL computes it (compute_partition_hash_value): each non-NULL
// column's extended hash combined with hash_combine64.
func HashPartitionRemainder(key []value.Value, modulus int) int {
	var h uint64
	for _, v := range key {
		if v.IsNull() {
			continue
		}
		var c uint64
		switch v.Kind() {
		case value.Int8:
			n := v.Int()
			lo, hi := uint32(n), uint32(n>>32)
			if n >= 0 {
				lo ^= hi
			} else {
				lo ^= ^hi
			}
			c = hashUint32(lo, partitionSeed)
		case value.Bool:
			x := uint32(0)
			if v.Bool() {
				x = 1
			}
			c = hashUint32(x, partitionSeed)
		case value.Text, value.Varchar:
			c = hashBytes([]byte(v.Str()), partitionSeed)
		default: // int2, int4, date: hashed as a 32-bit integer
			c = hashUint32(uint32(int32(v.Int())), partitionSeed)
		}
		h ^= c + 0x49a0f4dd15e5a8e3 + (h << 54) + (h >> 7)
	}
	return int(h % uint64(modulus))
}

// Bob Jenkins' lookup3 mixing, as PostgreSQL's hashfn.c has it.
func mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= c
	a ^= bits.RotateLeft32(c, 4)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 6)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 8)
	b += a
	a -= c
	a ^= bits.RotateLeft32(c, 16)
	c += b
	b -= a
	b ^= bits.RotateLeft32(a, 19)
	a += c
	c -= b
	c ^= bits.RotateLeft32(b, 4)
	b += a
	return a, b, c
}

func final(a, b, c uint32) (uint32, uint32, uint32) {
	c ^= b
	c -= bits.RotateLeft32(b, 14)
	a ^= c
	a -= bits.RotateLeft32(c, 11)
	b ^= a
	b -= bits.RotateLeft32(a, 25)
	c ^= b
	c -= bits.RotateLeft32(b, 16)
	a ^= c
	a -= bits.RotateLeft32(c, 4)
	b ^= a
	b -= bits.RotateLeft32(a, 14)
	c ^= b
	c -= bits.RotateLeft32(b, 24)
	return a, b, c
}

func seeded(a, b, c uint32, seed uint64) (uint32, uint32, uint32) {
	if seed != 0 {
		a += uint32(seed >> 32)
		b += uint32(seed)
		a, b, c = mix(a, b, c)
	}
	return a, b, c
}

// hashUint32 is hash_bytes_uint32_extended.
func hashUint32(k uint32, seed uint64) uint64 {
	a := uint32(0x9e3779b9 + 4 + 3923095)
	a, b, c := seeded(a, a, a, seed)
	a += k
	_, b, c = final(a, b, c)
	return uint64(b)<<32 | uint64(c)
}

// hashBytes is hash_bytes_extended on a little-endian machine.
func hashBytes(k []byte, seed uint64) uint64 {
	a := 0x9e3779b9 + uint32(len(k)) + 3923095
	a, b, c := seeded(a, a, a, seed)
	word := func(p []byte) uint32 {
		return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
	}
	for len(k) >= 12 {
		a += word(k)
		b += word(k[4:])
		c += word(k[8:])
		a, b, c = mix(a, b, c)
		k = k[12:]
	}
	n := len(k)
	// The last bytes; the lowest byte of c is left for the length.
	if n >= 9 {
		for i := n - 1; i >= 8; i-- {
			c += uint32(k[i]) << (8 * (i - 7))
		}
		n = 8
	}
	if n >= 5 {
		for i := n - 1; i >= 4; i-- {
			b += uint32(k[i]) << (8 * (i - 4))
		}
		n = 4
	}
	for i := n - 1; i >= 0; i-- {
		a += uint32(k[i]) << (8 * i)
	}
	_, b, c = final(a, b, c)
	return uint64(b)<<32 | uint64(c)
}

// HashUint32Extended is PostgreSQL's hash_uint32_extended(k, seed), for
// the hash functions the binder evaluates with the catalog.
func HashUint32Extended(k uint32, seed uint64) uint64 { return hashUint32(k, seed) }
