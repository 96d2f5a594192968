package expr

import "github.com/deltaview/deltaview/internal/value"

// The hash functions PostgreSQL exposes (hashtext, hashint4, …), whose
// results programs keep or use as keys, most often of advisory locks
// (pg_advisory_lock(hashtext('migrations'))): the same lookup3 hashes
// as hash partitioning's (partition_hash.go), so the same numbers as
// PostgreSQL's. Stateless. The 32-bit hash is the low half of the
// extended one under seed 0, as in PostgreSQL's hashfn.c.

func init() {
	T, I2, I4, I8 := value.Text, value.Int2, value.Int4, value.Int8
	strict("hashtext", kinds(T), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(int32(uint32(hashBytes([]byte(textOf(a[0])), 0))))), nil
	})
	strict("hashtextextended", kinds(T, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int8, int64(hashBytes([]byte(textOf(a[0])), uint64(a[1].Int())))), nil
	})
	strict("hashint4", kinds(I4), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(int32(uint32(hashUint32(uint32(int32(a[0].Int())), 0))))), nil
	})
	strict("hashint4extended", kinds(I4, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int8, int64(hashUint32(uint32(int32(a[0].Int())), uint64(a[1].Int())))), nil
	})
	// A smallint hashes as the int4 of the same value.
	strict("hashint2", kinds(I2), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(int32(uint32(hashUint32(uint32(int32(a[0].Int())), 0))))), nil
	})
	strict("hashint2extended", kinds(I2, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int8, int64(hashUint32(uint32(int32(a[0].Int())), uint64(a[1].Int())))), nil
	})
	strict("hashint8", kinds(I8), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return int4(int64(int32(uint32(hashUint32(foldInt8(a[0].Int()), 0))))), nil
	})
	strict("hashint8extended", kinds(I8, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int8, int64(hashUint32(foldInt8(a[0].Int()), uint64(a[1].Int())))), nil
	})
}

// foldInt8 is hashint8's 32 bits of a bigint: the low half xor the high
// one (its complement for a negative number), so that a bigint hashes as
// the int4 of the same value.
func foldInt8(n int64) uint32 {
	lo, hi := uint32(n), uint32(n>>32)
	if n >= 0 {
		return lo ^ hi
	}
	return lo ^ ^hi
}
