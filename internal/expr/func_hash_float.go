package expr

import (
	"encoding/binary"
	"math"

	"github.com/deltaview/deltaview/internal/value"
)

// hashfloat4 and hashfloat8 with their _extended forms, as PostgreSQL
// computes them: the eight bytes of the double precision value (a real is
// widened first, so that equal values hash alike), zero and minus zero
// hashing to 0 (the seed), every NaN as one. Stateless.

func init() {
	F4, F8, I8 := value.Float4, value.Float8, value.Int8
	for _, k := range []value.Kind{F4, F8} {
		name := "hashfloat8"
		if k == F4 {
			name = "hashfloat4"
		}
		strict(name, kinds(k), value.Int4Type, func(a []value.Value) (value.Value, error) {
			return int4(int64(int32(uint32(hashFloat(a[0].Float(), 0))))), nil
		})
		strict(name+"extended", kinds(k, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
			return value.NewInt(value.Int8, int64(hashFloat(a[0].Float(), uint64(a[1].Int())))), nil
		})
	}
}

func hashFloat(f float64, seed uint64) uint64 {
	if f == 0 {
		return seed
	}
	bits := math.Float64bits(f)
	if math.IsNaN(f) {
		bits = 0x7ff8000000000000
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], bits)
	return hashBytes(b[:], seed)
}
