package expr

import (
	"math"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The in_range support functions (btree's procedure 3, which window RANGE
// frames with an offset use), callable by name as in PostgreSQL:
// in_range(val, base, offset, sub, less) says whether val <= base ± offset
// (less) or val >= base ± offset (not less), the offset subtracted when
// sub. A negative offset (NaN too for floats and numeric; for time and
// timetz the offset's time part alone counts) is 22013. Stateless.
func init() {
	I2, I4, I8, F4, F8, B := value.Int2, value.Int4, value.Int8, value.Float4, value.Float8, value.Bool
	N, D, TS, TSTZ, IV := value.Numeric, value.Date, value.Timestamp, value.TimestampTZ, value.Interval
	def := func(v, o value.Kind, f func(val, base, off value.Value, sub, less bool) (bool, error)) {
		strict("in_range", kinds(v, v, o, B, B), value.BoolType, func(a []value.Value) (value.Value, error) {
			r, err := f(a[0], a[1], a[2], a[3].Bool(), a[4].Bool())
			if err != nil {
				return value.Null, err
			}
			return value.NewBool(r), nil
		})
	}
	for _, p := range [][2]value.Kind{{I8, I8}, {I4, I8}, {I4, I4}, {I4, I2}, {I2, I8}, {I2, I4}, {I2, I2}} {
		def(p[0], p[1], inRangeInt)
	}
	def(F8, F8, inRangeFloat)
	def(F4, F8, inRangeFloat)
	def(N, N, inRangeNumeric)
	def(D, IV, func(val, base, off value.Value, sub, less bool) (bool, error) {
		// Dates are compared as the timestamps of their midnights.
		v, err := value.Cast(val, value.TimestampType, false)
		if err != nil {
			return false, err
		}
		b, err := value.Cast(base, value.TimestampType, false)
		if err != nil {
			return false, err
		}
		return inRangeSpan(v, b, off, sub, less, value.UTC)
	})
	def(TS, IV, func(val, base, off value.Value, sub, less bool) (bool, error) {
		return inRangeSpan(val, base, off, sub, less, value.UTC)
	})
	def(IV, IV, func(val, base, off value.Value, sub, less bool) (bool, error) {
		return inRangeSpan(val, base, off, sub, less, value.UTC)
	})
	// timestamptz moves by months and days in the session's zone, as
	// timestamptz + interval does.
	strictZone("in_range", kinds(TSTZ, TSTZ, IV, B, B), value.BoolType, func(a []value.Value, z value.Zone) (value.Value, error) {
		r, err := inRangeSpan(a[0], a[1], a[2], a[3].Bool(), a[4].Bool(), z)
		if err != nil {
			return value.Null, err
		}
		return value.NewBool(r), nil
	})
	def(value.Time, IV, inRangeTime)
	def(value.TimeTZ, IV, inRangeTime)
}

// errRangeOffset is in_range's error for a negative or NaN offset.
func errRangeOffset() error {
	return pgerr.New("22013", "invalid preceding or following size in window function")
}

// inRangeResult is val <= sum when less, else val >= sum, from the
// order c of val against sum.
func inRangeResult(c int, less bool) bool {
	if less {
		return c <= 0
	}
	return c >= 0
}

// inRangeInt is in_range over integers: a sum beyond bigint lies beyond
// every value, so val is within it exactly when it is an upper bound.
func inRangeInt(val, base, off value.Value, sub, less bool) (bool, error) {
	v, b, o := val.Int(), base.Int(), off.Int()
	if o < 0 {
		return false, errRangeOffset()
	}
	if sub {
		o = -o
	}
	sum := b + o
	if (o > 0 && sum < b) || (o < 0 && sum > b) {
		return !sub == less, nil
	}
	return inRangeResult(cmpSign(v, sum), less), nil
}

// inRangeFloat is in_range over floats, in double precision: NaN sorts
// after every other value and equals NaN whatever the offset; an infinite
// offset from an infinite base of the sign that makes the sum NaN (+inf
// minus +inf) holds every value.
func inRangeFloat(val, base, off value.Value, sub, less bool) (bool, error) {
	v, b, o := val.Float(), base.Float(), off.Float()
	if math.IsNaN(o) || o < 0 {
		return false, errRangeOffset()
	}
	switch {
	case math.IsNaN(v) && math.IsNaN(b):
		return true, nil
	case math.IsNaN(v):
		return !less, nil
	case math.IsNaN(b):
		return less, nil
	case math.IsInf(o, 1) && math.IsInf(b, 0) && (b > 0) == sub:
		return true, nil
	}
	sum := b + o
	if sub {
		sum = b - o
	}
	if less {
		return v <= sum, nil
	}
	return v >= sum, nil
}

// inRangeNumeric is in_range over numeric, with PostgreSQL's rules for
// NaN (after every value) and the infinities.
func inRangeNumeric(val, base, off value.Value, sub, less bool) (bool, error) {
	v, b, o := val.Decimal(), base.Decimal(), off.Decimal()
	nan := func(d *apd.Decimal) bool { return d.Form == apd.NaN || d.Form == apd.NaNSignaling }
	inf := func(d *apd.Decimal, neg bool) bool { return d.Form == apd.Infinite && d.Negative == neg }
	if nan(o) || o.Negative && (o.Form == apd.Infinite || !o.IsZero()) {
		return false, errRangeOffset()
	}
	switch {
	case nan(v) && nan(b):
		return true, nil
	case nan(v):
		return !less, nil
	case nan(b):
		return less, nil
	case o.Form == apd.Infinite:
		switch {
		case sub && inf(b, false), !sub && inf(b, true):
			return true, nil // the sum would be NaN: every value is within
		case sub:
			return !less || inf(v, true), nil // the sum is -inf
		}
		return less || inf(v, false), nil // the sum is +inf
	case v.Form == apd.Infinite || b.Form == apd.Infinite:
		// The finite offset cannot move the order of val and base.
		return inRangeResult(value.Compare(val, base), less), nil
	}
	sum, err := value.Add(base, off)
	if sub {
		sum, err = value.Sub(base, off)
	}
	if err != nil {
		return false, err
	}
	return inRangeResult(value.Compare(val, sum), less), nil
}

// inRangeSpan is in_range over timestamps, timestamptz (moved in zone z)
// and intervals: base ± offset as the operators compute it, with their
// overflow errors.
func inRangeSpan(val, base, off value.Value, sub, less bool, z value.Zone) (bool, error) {
	if value.Compare(off, value.NewInterval(value.Span{})) < 0 {
		return false, errRangeOffset()
	}
	var sum value.Value
	var err error
	switch {
	case base.Kind() == value.TimestampTZ:
		sum, err = value.AddZone(base, off, sub, z)
	case sub:
		sum, err = value.Sub(base, off)
	default:
		sum, err = value.Add(base, off)
	}
	if err != nil {
		return false, err
	}
	return inRangeResult(value.Compare(val, sum), less), nil
}

// inRangeTime is in_range over time and timetz: the offset's time part
// alone moves the time of day, without wrapping around midnight; a
// timetz's bound keeps its zone and compares as timetz does (by the
// instant, then the zone).
func inRangeTime(val, base, off value.Value, sub, less bool) (bool, error) {
	d := off.Span().Micros
	if d < 0 {
		return false, errRangeOffset()
	}
	if sub {
		d = -d
	}
	if val.Kind() == value.Time {
		return inRangeResult(cmpSign(val.Int(), base.Int()+d), less), nil
	}
	vt, vz := val.TimeTZ()
	bt, bz := base.TimeTZ()
	c := cmpSign(vt+int64(vz)*1e6, bt+d+int64(bz)*1e6)
	if c == 0 {
		c = cmpSign(vz, bz)
	}
	return inRangeResult(c, less), nil
}
