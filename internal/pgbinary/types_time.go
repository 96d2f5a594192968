package pgbinary

import (
	"encoding/binary"

	"github.com/deltaview/deltaview/internal/value"
)

// appendTimeBinary writes a time (microseconds since midnight, int64), a
// timetz (that, then the zone in seconds west of UTC, int32) or an
// interval (microseconds int64, days int32, months int32) in PostgreSQL's
// binary format.
func appendTimeBinary(buf []byte, v value.Value) []byte {
	switch v.Kind() {
	case value.Time:
		return binary.BigEndian.AppendUint64(buf, uint64(v.Int()))
	case value.TimeTZ:
		us, zone := v.TimeTZ()
		buf = binary.BigEndian.AppendUint64(buf, uint64(us))
		return binary.BigEndian.AppendUint32(buf, uint32(zone))
	}
	s := v.Span()
	buf = binary.BigEndian.AppendUint64(buf, uint64(s.Micros))
	buf = binary.BigEndian.AppendUint32(buf, uint32(s.Days))
	return binary.BigEndian.AppendUint32(buf, uint32(s.Months))
}

// decodeTimeBinary reads appendTimeBinary's formats; ok is false for a
// wrong length or a value out of the type's range.
func decodeTimeBinary(b []byte, k value.Kind) (value.Value, bool) {
	const day = 86400 * 1000000
	switch k {
	case value.Time:
		if len(b) != 8 {
			return value.Null, false
		}
		us := int64(binary.BigEndian.Uint64(b))
		return value.NewTime(us), us >= 0 && us <= day
	case value.TimeTZ:
		if len(b) != 12 {
			return value.Null, false
		}
		us := int64(binary.BigEndian.Uint64(b))
		zone := int32(binary.BigEndian.Uint32(b[8:]))
		if us < 0 || us > day || zone <= -16*3600 || zone >= 16*3600 {
			return value.Null, false
		}
		return value.NewTimeTZ(us, zone), true
	}
	if len(b) != 16 {
		return value.Null, false
	}
	return value.NewInterval(value.Span{Micros: int64(binary.BigEndian.Uint64(b)),
		Days: int32(binary.BigEndian.Uint32(b[8:])), Months: int32(binary.BigEndian.Uint32(b[12:]))}), true
}
