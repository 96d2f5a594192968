package deltaview

import (
	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/value"
)

// Value is one SQL datum with its type; the zero Value is NULL. String
// returns PostgreSQL's text output.
type Value = value.Value

// Null is SQL NULL.
var Null = value.Null

// Bool returns a boolean value.
func Bool(b bool) Value { return value.NewBool(b) }

// Int returns a bigint value; a change converts it to its column's type.
func Int(n int64) Value { return value.NewInt(value.Int8, n) }

// Float returns a double precision value.
func Float(f float64) Value { return value.NewFloat(value.Float8, f) }

// Text returns a text value.
func Text(s string) Value { return value.NewText(value.Text, s) }

// Numeric parses an exact decimal ("12.50" keeps its scale).
func Numeric(s string) (Value, error) {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return Null, err
	}
	return value.NewNumeric(d), nil
}

// Interval returns an interval of months, days and microseconds, the three
// fields PostgreSQL keeps apart ('1 mon' is not '30 days' on the calendar).
func Interval(months, days int32, micros int64) Value {
	return value.NewInterval(value.Span{Months: months, Days: days, Micros: micros})
}

// TimeOfDay returns a time: micros since midnight, 0 to 24:00:00 (22008
// outside).
func TimeOfDay(micros int64) (Value, error) {
	return value.MakeTimeTZ(micros, 0, value.Time)
}

// TimeOfDayTZ returns a time with time zone: micros since midnight, and
// the zone's offset east of UTC in seconds (+02:00 is 7200), less than 16
// hours either way (22009 otherwise).
func TimeOfDayTZ(micros int64, offset int32) (Value, error) {
	return value.MakeTimeTZ(micros, -offset, value.TimeTZ)
}

// Bytea returns a bytea holding a copy of b.
func Bytea(b []byte) Value { return value.NewBytea(append([]byte{}, b...)) }

// UUID returns a uuid of the 16 bytes u.
func UUID(u [16]byte) Value { return value.NewUUID(u) }
