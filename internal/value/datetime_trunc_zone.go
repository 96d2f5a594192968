package value

import "github.com/deltaview/deltaview/internal/pgerr"

// DateTruncZone is date_trunc(field, v, zone) of a timestamptz v: v is
// truncated as z's wall-clock time. As in PostgreSQL, a unit of a day or
// more reads the truncated wall-clock time in z again (so a day starts at
// z's midnight whatever the offset at v), a smaller unit keeps v's offset.
// An infinite v is returned as it is.
func DateTruncZone(field string, v Value, z Zone) (Value, error) {
	if !tsIsFinite(v.n) {
		return v, nil
	}
	off := z.offsetAt(v.n) * usecsPerSec
	local := v.n + off
	if !validTimestamp(local) {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	}
	t, err := DateTrunc(field, NewTimestamp(TimestampTZ, local))
	if err != nil {
		return Null, err
	}
	u, _ := unit(field, TimestampTZ)
	switch u {
	case "day", "week", "month", "quarter", "year", "decade", "century", "millennium":
		off = z.offsetOfLocal(t.n) * usecsPerSec
	}
	us := t.n - off
	if !validTimestamp(us) {
		return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
	}
	return NewTimestamp(TimestampTZ, us), nil
}
