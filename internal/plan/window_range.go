package plan

import (
	"math"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// RANGE frames with an offset: a row's frame holds the rows whose one
// ORDER BY value lies within the offset of its own, as PostgreSQL's
// in_range functions decide. A bound is the current row's value plus or
// minus the offset (an integer offset over integers, computed in bigint;
// numeric over numeric; double precision over floats; an interval over
// dates, timestamps and intervals, a date taken as a timestamp). A row
// whose value is NULL has its peers (the NULLs) as the frame an offset
// bound gives; the NULLs are in no other row's offset bound.

// RangeOffset reports whether a bound of the frame is an offset in RANGE
// mode.
func (f Frame) RangeOffset() bool {
	return !f.Rows && !f.Groups && (f.Start == OffsetPreceding || f.Start == OffsetFollowing ||
		f.End == OffsetPreceding || f.End == OffsetFollowing)
}

// RangeOffsetType is the type of a RANGE offset over an ORDER BY value of
// type t, or false when there is none: PostgreSQL has no in_range
// function for t.
func RangeOffsetType(t value.Type) (value.Type, bool) {
	switch k := t.Kind; {
	case k.IsInteger():
		return value.Int8Type, true
	case k == value.Numeric:
		return value.NumericType, true
	case k.IsFloat():
		return value.Float8Type, true
	case k == value.Date, k == value.Timestamp, k == value.TimestampTZ, k == value.Interval, k == value.Time, k == value.TimeTZ:
		return value.IntervalType, true
	}
	return value.Type{}, false
}

// CheckRangeOffset returns PostgreSQL's error for an offset that is
// negative or NaN (22013).
func CheckRangeOffset(off value.Value) error {
	bad := false
	switch k := off.Kind(); {
	case k.IsInteger():
		bad = off.Int() < 0
	case k.IsFloat():
		bad = off.Float() < 0 || math.IsNaN(off.Float())
	case k == value.Numeric:
		d := off.Decimal()
		bad = d.Form == apd.NaN || d.Form == apd.NaNSignaling || d.Negative && (d.Form == apd.Infinite || !d.IsZero())
	case k == value.Interval:
		bad = value.Compare(off, value.NewInterval(value.Span{})) < 0
	}
	if bad {
		return pgerr.New("22013", "invalid preceding or following size in window function")
	}
	return nil
}

// RangeBound is where a RANGE offset bound of a row whose ORDER BY value
// is key (not NULL) lies: key minus the offset when sub, else plus. all
// says every non-NULL value is within the bound (as PostgreSQL has it when
// the sum would be undefined: +inf minus +inf, -inf plus +inf; NaN
// still sorts after it, see RangeAllCompare); inf is
// ±1 when the bound is beyond every value of the type (an integer sum out
// of bigint's range).
func RangeBound(key, off value.Value, sub bool) (b value.Value, all bool, inf int, err error) {
	k := key.Kind()
	if k.IsInteger() {
		x, y := key.Int(), off.Int()
		if sub {
			if x < math.MinInt64+y {
				return value.Null, false, -1, nil
			}
			return value.NewInt(value.Int8, x-y), false, 0, nil
		}
		if x > math.MaxInt64-y {
			return value.Null, false, 1, nil
		}
		return value.NewInt(value.Int8, x+y), false, 0, nil
	}
	if k == value.Float4 {
		key = value.NewFloat(value.Float8, key.Float())
	}
	if k == value.Time {
		// As PostgreSQL's in_range for time: the offset's time part
		// alone, without wrapping around midnight (the bound, in
		// microseconds, may lie outside the day).
		if sub {
			return value.NewInt(value.Int8, key.Int()-off.Span().Micros), false, 0, nil
		}
		return value.NewInt(value.Int8, key.Int()+off.Span().Micros), false, 0, nil
	}
	if k == value.TimeTZ {
		// As PostgreSQL's in_range for timetz: the offset's time part
		// moves the time of day in the key's zone, without wrapping; the
		// bound compares as timetz does (by the instant, then the zone).
		// A bound past what a timetz holds is beyond every value.
		us, zone := key.TimeTZ()
		d := off.Span().Micros
		if sub {
			d = -d
		}
		if us+d > maxTimeTZBound || us+d < -maxTimeTZBound {
			if sub {
				return value.Null, false, -1, nil
			}
			return value.Null, false, 1, nil
		}
		return value.NewTimeTZ(us+d, zone), false, 0, nil
	}
	if k == value.Date {
		if key, err = value.Cast(key, value.TimestampType, false); err != nil {
			return value.Null, false, 0, err
		}
	}
	if k.IsFloat() {
		x, y := key.Float(), off.Float()
		if math.IsInf(x, 0) && math.IsInf(y, 0) && (x > 0) == sub {
			return value.Null, true, 0, nil
		}
		if sub {
			return value.NewFloat(value.Float8, x-y), false, 0, nil
		}
		return value.NewFloat(value.Float8, x+y), false, 0, nil
	}
	if sub {
		b, err = value.Sub(key, off)
	} else {
		b, err = value.Add(key, off)
	}
	if err != nil {
		return value.Null, false, 0, err
	}
	if k == value.Numeric && b.Decimal().Form == apd.NaN && key.Decimal().Form != apd.NaN {
		return value.Null, true, 0, nil // ±inf ∓ inf
	}
	return b, false, 0, nil
}

// RangeAllCompare orders a non-NULL value v against a bound that every
// value but NaN is within (RangeBound's all), ascending: below v when the
// bound is checked as v >= bound (less false), above it when checked as
// v <= bound, NaN excepted, which sorts after every value.
func RangeAllCompare(v value.Value, less bool) int {
	nan := false
	switch k := v.Kind(); {
	case k.IsFloat():
		nan = math.IsNaN(v.Float())
	case k == value.Numeric:
		nan = v.Decimal().Form == apd.NaN
	}
	if !less || nan {
		return 1
	}
	return -1
}

// RangeCompare orders a non-NULL ORDER BY value v against a bound b of
// RangeBound (ascending): the integers by value whatever their width,
// floats as double precision, a date as a timestamp.
func RangeCompare(v, b value.Value) int {
	switch k := v.Kind(); {
	case k.IsInteger(), k == value.Time:
		x, y := v.Int(), b.Int()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case k == value.Float4:
		v = value.NewFloat(value.Float8, v.Float())
	case k == value.Date:
		if t, err := value.Cast(v, value.TimestampType, false); err == nil && b.Kind() == value.Timestamp {
			v = t
		}
	}
	return value.Compare(v, b)
}

// maxTimeTZBound is the farthest a timetz RANGE bound's time of day may
// lie from midnight and still be kept in a timetz value (its packing
// shifts the microseconds 17 bits); no time of day reaches it.
const maxTimeTZBound = 1 << 44
