package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The functions of PostgreSQL's casts that apply a type modifier, which
// pg_cast names (psql's \dC): bpchar, varchar, bit and varbit of a value
// and a length (the last argument says whether the cast is explicit,
// which truncates where an implicit one fails), numeric, time, timetz,
// timestamp, timestamptz and interval of a value and a modifier, and bit of an
// integer and a length. Each takes the modifier as pg_attribute's
// atttypmod holds it; one the type does not take leaves the value as it
// is, as PostgreSQL's do.
func init() {
	coerce := func(name string, k value.Kind, withExplicit bool, valid func(mod int64, v value.Value) bool) {
		params := kinds(k, value.Int4)
		if withExplicit {
			params = append(params, value.Bool)
		}
		strict(name, params, value.Type{Kind: k, Mod: -1}, func(a []value.Value) (value.Value, error) {
			if !valid(a[1].Int(), a[0]) {
				return a[0], nil
			}
			return value.Coerce(a[0], value.WithTypmod(k, int32(a[1].Int())), len(a) > 2 && a[2].Bool())
		})
	}
	length := func(mod int64, _ value.Value) bool { return mod >= 4 && mod <= maxTypmodLength+4 }
	bits := func(mod int64, v value.Value) bool { return mod > 0 && mod <= maxTypmodLength }
	precision := func(mod int64, _ value.Value) bool { return mod >= 0 && mod <= 6 }
	numeric := func(mod int64, _ value.Value) bool {
		p, s := (mod-4)>>16&0xffff, (mod-4)&0xffff
		return mod >= 4 && p >= 1 && p <= 1000 && s <= p
	}
	coerce("bpchar", value.Char, true, length)
	coerce("varchar", value.Varchar, true, length)
	coerce("bit", value.Bit, true, bits)
	coerce("varbit", value.Varbit, true, bits)
	coerce("numeric", value.Numeric, false, numeric)
	coerce("time", value.Time, false, precision)
	coerce("timetz", value.TimeTZ, false, precision)
	coerce("timestamp", value.Timestamp, false, precision)
	coerce("timestamptz", value.TimestampTZ, false, precision)
	strict("interval", kinds(value.Interval, value.Int4), value.Type{Kind: value.Interval, Mod: -1}, func(a []value.Value) (value.Value, error) {
		return value.ScaleInterval(a[0], int32(a[1].Int()))
	})
	// An integer's low bits as bit(n), n 1 when not positive.
	for _, k := range []value.Kind{value.Int4, value.Int8} {
		strict("bit", kinds(k, value.Int4), value.Type{Kind: value.Bit, Mod: -1}, func(a []value.Value) (value.Value, error) {
			n := a[1].Int()
			if n <= 0 || n > maxTypmodLength {
				n = 1
			}
			return value.Cast(a[0], value.Type{Kind: value.Bit, Mod: int32(n)}, true)
		})
	}
}

// maxTypmodLength is the longest length a string or bit string type
// takes (10485760, as PostgreSQL's).
const maxTypmodLength = 10 * 1024 * 1024
