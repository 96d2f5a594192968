package value

import (
	"math"
	"strconv"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Times of day, after PostgreSQL's date.c. A time is microseconds since
// midnight, 0 to 24:00:00 inclusive. A timetz is a time and a zone, the
// zone in PostgreSQL's convention: seconds west of UTC (+02 is -7200).
//
// A timetz is held inline as one integer whose order is PostgreSQL's
// order of timetz: by the UTC instant (time + zone), then by zone, so that
// two timetz are equal only when time and zone both are. The integer is
// the instant shifted left by zoneBits, plus the zone offset by maxZone:
// the instant needs 38 bits and the zone 17, so both fit in an int64 and
// comparing, hashing and key encoding treat it as any integer.

const (
	// maxZone bounds a zone's magnitude (exclusive): PostgreSQL's
	// TZDISP_LIMIT, 16 hours.
	maxZone  = 16 * 3600
	zoneBits = 17
)

// NewTime returns a time of day, as microseconds since midnight; the
// caller has checked 0 ≤ us ≤ 24:00:00.
func NewTime(us int64) Value { return Value{kind: Time, n: us} }

// NewTimeTZ returns a time with time zone: us microseconds since midnight
// and zone seconds west of UTC, |zone| < 16 hours.
func NewTimeTZ(us int64, zone int32) Value {
	return Value{kind: TimeTZ, n: (us+int64(zone)*usecsPerSec)<<zoneBits | int64(zone+maxZone)}
}

// TimeTZ returns a timetz's time of day (microseconds since midnight) and
// zone (seconds west of UTC).
func (v Value) TimeTZ() (us int64, zone int32) {
	zone = int32(v.n&(1<<zoneBits-1)) - maxZone
	return v.n>>zoneBits - int64(zone)*usecsPerSec, zone
}

// timeOfDay is a time's or timetz's microseconds since midnight.
func (v Value) timeOfDay() int64 {
	if v.kind == TimeTZ {
		us, _ := v.TimeTZ()
		return us
	}
	return v.n
}

// withTime returns a time or timetz like v with the time of day us.
func (v Value) withTime(us int64) Value {
	if v.kind == TimeTZ {
		_, z := v.TimeTZ()
		return NewTimeTZ(us, z)
	}
	return NewTime(us)
}

func appendTime(buf []byte, us int64) []byte {
	secs, frac := us/usecsPerSec, us%usecsPerSec
	buf = appendPadded(buf, secs/3600, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs/60%60, 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, secs%60, 2)
	if frac != 0 {
		buf = append(buf, '.')
		width := 6
		for frac%10 == 0 {
			frac /= 10
			width--
		}
		buf = appendPadded(buf, frac, width)
	}
	return buf
}

// appendZone writes a zone as PostgreSQL's EncodeTimezone: +HH, +HH:MM or
// +HH:MM:SS, east of UTC.
func appendZone(buf []byte, zone int32) []byte {
	return appendOffset(buf, -int64(zone))
}

func appendTimeText(buf []byte, v Value) []byte {
	if v.kind == TimeTZ {
		us, z := v.TimeTZ()
		return appendZone(appendTime(buf, us), z)
	}
	return appendTime(buf, v.n)
}

// coerceTime rounds a time's or timetz's fraction to p digits, half away
// from zero, as PostgreSQL's AdjustTimeForTypmod.
func coerceTime(v Value, p int32) Value {
	if p >= 6 || p < 0 {
		return v
	}
	sc := timestampScales[p]
	return v.withTime((v.timeOfDay() + sc/2) / sc * sc)
}

func timeType(k Kind, mods []int32) (Type, error) {
	switch len(mods) {
	case 0:
		return Type{k, -1}, nil
	case 1:
	default:
		return Type{}, pgerr.New(pgerr.InvalidParameter, "invalid type modifier")
	}
	p := mods[0]
	if p < 0 {
		name := "TIME"
		if k == TimeTZ {
			name = "TIME WITH TIME ZONE"
		}
		return Type{}, pgerr.New(pgerr.InvalidParameter, "%s(%d) precision must not be negative", name, p)
	}
	// PostgreSQL reduces a larger precision to the maximum with a warning.
	return Type{k, min(p, maxTimestampPrec)}, nil
}

func timeTypeString(t Type) string {
	if t.Kind == TimeTZ {
		return "time(" + strconv.Itoa(int(t.Mod)) + ") with time zone"
	}
	return "time(" + strconv.Itoa(int(t.Mod)) + ") without time zone"
}

// wrapDay brings microseconds into one day, as time ± interval does.
func wrapDay(us int64) int64 {
	us -= us / usecsPerDay * usecsPerDay
	if us < 0 {
		us += usecsPerDay
	}
	return us
}

// castTime converts to or from time and timetz; ok is false for the pairs
// PostgreSQL has no cast for. A cast from an infinite timestamp is NULL,
// as in PostgreSQL.
func castTime(v Value, to Kind) (r Value, ok bool, err error) {
	from := v.kind
	switch {
	case (from == Timestamp || from == TimestampTZ) && (to == Time || to == TimeTZ && from == TimestampTZ):
		if !tsIsFinite(v.n) {
			return Null, true, nil
		}
		tod := v.n - floorDiv(v.n, usecsPerDay)*usecsPerDay
		if to == TimeTZ {
			return NewTimeTZ(tod, 0), true, nil
		}
		return NewTime(tod), true, nil
	case from == Time && to == TimeTZ:
		return NewTimeTZ(v.n, 0), true, nil
	case from == TimeTZ && to == Time:
		return NewTime(v.timeOfDay()), true, nil
	case from == Interval && to == Time:
		return NewTime(wrapDay(v.Span().Micros)), true, nil
	case from == Time && to == Interval:
		return NewInterval(Span{Micros: v.n}), true, nil
	}
	return Null, false, nil
}

// timeArith is the arithmetic of times: time ± interval and timetz ±
// interval wrap around midnight, time - time is an interval, date + time
// a timestamp and date + timetz a timestamptz; ok is false for other
// operands.
func timeArith(a, b Value, sub bool) (r Value, ok bool, err error) {
	switch {
	case (a.kind == Time || a.kind == TimeTZ) && b.kind == Interval:
		d := b.Span().Micros
		if sub {
			d = -d
		}
		return a.withTime(wrapDay(a.timeOfDay() + d%usecsPerDay)), true, nil
	case a.kind == Interval && (b.kind == Time || b.kind == TimeTZ) && !sub:
		return timeArith(b, a, false)
	case a.kind == Time && b.kind == Time && sub:
		return NewInterval(Span{Micros: a.n - b.n}), true, nil
	case a.kind == Date && (b.kind == Time || b.kind == TimeTZ) && !sub:
		return dateAndTime(a, b)
	case (a.kind == Time || a.kind == TimeTZ) && b.kind == Date && !sub:
		return dateAndTime(b, a)
	}
	return Null, false, nil
}

// dateAndTime is date + time, or date + timetz (a timestamptz at the
// timetz's zone).
func dateAndTime(d, t Value) (Value, bool, error) {
	k := Timestamp
	if t.kind == TimeTZ {
		k = TimestampTZ
	}
	switch d.n {
	case DateNegInfinity:
		return NewTimestamp(k, TimestampNegInfinity), true, nil
	case DatePosInfinity:
		return NewTimestamp(k, TimestampPosInfinity), true, nil
	}
	if d.n < minDate || d.n >= endTimestamp/usecsPerDay {
		return Null, true, pgerr.New(pgerr.DatetimeOverflow, "date out of range for timestamp")
	}
	us := d.n*usecsPerDay + t.timeOfDay()
	if t.kind == TimeTZ {
		_, z := t.TimeTZ()
		us += int64(z) * usecsPerSec
	}
	if !validTimestamp(us) {
		return Null, true, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	}
	return NewTimestamp(k, us), true, nil
}

// timeField is extract(field FROM v) of a time or timetz (numeric when
// asNumeric, else date_part's double precision).
func timeField(field string, v Value, asNumeric bool) (Value, error) {
	u, err := unit(field, v.kind)
	if err != nil {
		return Null, err
	}
	tod := v.timeOfDay()
	_, zone := v.TimeTZ()
	secUs := tod % usecsPerMinute
	var r fieldResult
	switch u {
	case "microseconds":
		r = fieldResult{n: secUs}
	case "milliseconds":
		if !asNumeric {
			return NewFloat(Float8, float64(secUs/usecsPerSec)*1000+float64(secUs%usecsPerSec)/1000), nil
		}
		r = fieldResult{n: secUs, scale: 3}
	case "second":
		if !asNumeric {
			return NewFloat(Float8, float64(secUs/usecsPerSec)+float64(secUs%usecsPerSec)/1e6), nil
		}
		r = fieldResult{n: secUs, scale: 6}
	case "minute":
		r = fieldResult{n: tod / usecsPerMinute % 60}
	case "hour":
		r = fieldResult{n: tod / usecsPerHour}
	case "epoch":
		if !asNumeric {
			// As PostgreSQL computes it: the zone added after the division.
			f := float64(tod) / 1e6
			if v.kind == TimeTZ {
				f += float64(zone)
			}
			return NewFloat(Float8, f), nil
		}
		if v.kind == TimeTZ {
			tod += int64(zone) * usecsPerSec
		}
		r = fieldResult{n: tod, scale: 6}
	case "timezone", "timezone_h", "timezone_m":
		if v.kind != TimeTZ {
			return Null, errUnitNotSupported(field, v.kind)
		}
		east := -int64(zone)
		switch u {
		case "timezone":
			r = fieldResult{n: east}
		case "timezone_h":
			r = fieldResult{n: east / 3600}
		default:
			r = fieldResult{n: east / 60 % 60}
		}
	default:
		return Null, errUnitNotSupported(field, v.kind)
	}
	if !asNumeric {
		return NewFloat(Float8, float64(r.n)), nil
	}
	return NewNumeric(apd.New(r.n, -r.scale)), nil
}

// MakeTime is make_time(hour, min, sec): 22008 when a field is out of
// range, with the fields in the message as PostgreSQL prints them.
func MakeTime(h, m int64, sec float64) (Value, error) {
	us := int64(0)
	okSec := !math.IsNaN(sec) && sec >= 0 && sec <= 60
	if okSec {
		us = int64(math.RoundToEven(sec * 1e6))
	}
	tod := (h*60+m)*60*usecsPerSec + us
	if h < 0 || h > 24 || m < 0 || m > 59 || !okSec || tod > usecsPerDay {
		// PostgreSQL prints the seconds with %02g.
		s := "NaN"
		if !math.IsNaN(sec) {
			s = strconv.FormatFloat(sec, 'g', 6, 64)
			if len(s) < 2 {
				s = "0" + s
			}
		}
		return Null, pgerr.New(pgerr.DatetimeOverflow, "time field value out of range: %d:%02d:%s", h, m, s)
	}
	return NewTime(tod), nil
}

// MakeTimeTZ returns a time (k Time, zone ignored) or a timetz (k TimeTZ)
// after checking its range: 22008 for a time of day outside 0 to
// 24:00:00, 22009 for a zone of 16 hours or more.
func MakeTimeTZ(us int64, zone int32, k Kind) (Value, error) {
	if us < 0 || us > usecsPerDay {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "time out of range")
	}
	if k == Time {
		return NewTime(us), nil
	}
	if zone <= -maxZone || zone >= maxZone {
		return Null, pgerr.New("22009", "time zone displacement out of range")
	}
	return NewTimeTZ(us, zone), nil
}
