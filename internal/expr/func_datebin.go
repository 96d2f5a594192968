package expr

import (
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// date_bin(stride, source, origin) for timestamp and timestamptz: the
// start of the stride-long bin, counted from origin, that holds source —
// origin plus the whole strides up to source, rounded down also before
// origin. A stride with months or years is 0A000, as in PostgreSQL (they
// have no fixed length); an infinite source is returned as it is.
func init() {
	for _, k := range []value.Kind{value.Timestamp, value.TimestampTZ} {
		strict("date_bin", kinds(value.Interval, k, k), value.Type{Kind: k, Mod: -1}, func(a []value.Value) (value.Value, error) {
			st := a[0].Span()
			if st.Months != 0 {
				return value.Null, pgerr.New(pgerr.FeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
			}
			stride, ok := mulAdd(int64(st.Days), 86400*1000000, st.Micros)
			if !ok {
				return value.Null, pgerr.New(pgerr.DatetimeOverflow, "interval out of range")
			}
			if stride <= 0 {
				return value.Null, pgerr.New(pgerr.DatetimeOverflow, "stride must be greater than zero")
			}
			src, origin := a[1].Int(), a[2].Int()
			if src == math.MinInt64 || src == math.MaxInt64 {
				return a[1], nil
			}
			if origin == math.MinInt64 || origin == math.MaxInt64 {
				return value.Null, pgerr.New(pgerr.DatetimeOverflow, "origin out of range")
			}
			diff := src - origin
			if (src >= 0) != (origin >= 0) && (diff >= 0) != (src >= 0) {
				return value.Null, pgerr.New(pgerr.DatetimeOverflow, "interval out of range")
			}
			delta := diff - diff%stride
			if diff%stride < 0 {
				delta -= stride
			}
			r := origin + delta
			if (delta >= 0) == (origin >= 0) && (r >= 0) != (origin >= 0) || r == math.MinInt64 || r == math.MaxInt64 {
				return value.Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
			}
			return value.NewTimestamp(k, r), nil
		})
	}
}

// mulAdd is a·b + c, and whether it fits in an int64.
func mulAdd(a, b, c int64) (int64, bool) {
	p := a * b
	if a != 0 && p/a != b {
		return 0, false
	}
	s := p + c
	if (c > 0 && s < p) || (c < 0 && s > p) {
		return 0, false
	}
	return s, true
}
