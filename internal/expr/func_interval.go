package expr

import (
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// MakeIntervalParams are make_interval's parameter names, in order, for
// calls that name their arguments (make_interval(days => 3)); a
// parameter not given is 0.
var MakeIntervalParams = []string{"years", "months", "weeks", "days", "hours", "mins", "secs"}

// make_interval and the OVERLAPS operator (which the parser writes as a
// call of overlaps), of timestamps, timestamptz and times of day.
func init() {
	I4, F8, IV := value.Int4, value.Float8, value.Interval
	makeInterval := func(a []value.Value) (value.Value, error) {
		var f [6]int64
		secs := 0.0
		for i, v := range a {
			if i == 6 {
				secs = v.Float()
			} else {
				f[i] = v.Int()
			}
		}
		if math.IsInf(secs, 0) || math.IsNaN(secs) {
			return value.Null, pgerr.New(pgerr.DatetimeOverflow, "interval out of range")
		}
		// PostgreSQL 15 checks nothing else: its 32-bit months and days and
		// its 64-bit microseconds wrap around, and seconds beyond 64 bits
		// of microseconds convert to the smallest int64, as x86 converts.
		us := math.RoundToEven(secs * 1e6)
		secUs := int64(math.MinInt64)
		if us >= -(1<<63) && us < 1<<63 {
			secUs = int64(us)
		}
		return value.NewInterval(value.Span{
			Months: int32(f[0]*12 + f[1]),
			Days:   int32(f[2]*7 + f[3]),
			Micros: f[4]*3600e6 + f[5]*60e6 + secUs,
		}), nil
	}
	for n := 0; n <= 7; n++ {
		ps := kinds(I4, I4, I4, I4, I4, I4, F8)[:n]
		strict("make_interval", ps, value.IntervalType, makeInterval)
	}

	for _, k := range []value.Kind{value.Timestamp, value.TimestampTZ, value.Time} {
		for _, ends := range [][2]value.Kind{{k, k}, {IV, IV}, {k, IV}, {IV, k}} {
			register(&FuncDef{Name: "overlaps", Params: kinds(k, ends[0], k, ends[1]), Result: value.BoolType, Eval: overlaps})
		}
	}
	// timetz has only the form of four timetz, as in PostgreSQL.
	TZ := value.TimeTZ
	register(&FuncDef{Name: "overlaps", Params: kinds(TZ, TZ, TZ, TZ), Result: value.BoolType, Eval: overlaps})
}

// overlaps is (s1, e1) OVERLAPS (s2, e2) as PostgreSQL's
// overlaps_timestamp computes it, NULLs included; an end that is an
// interval is its start plus the interval.
func overlaps(a []value.Value) (value.Value, error) {
	var p [4]value.Value
	copy(p[:], a)
	for _, i := range []int{1, 3} {
		if p[i].Kind() == value.Interval {
			if p[i-1].IsNull() {
				p[i] = value.Null
				continue
			}
			e, err := value.Add(p[i-1], p[i])
			if err != nil {
				return value.Null, err
			}
			p[i] = e
		}
	}
	s1, e1, s2, e2 := p[0], p[1], p[2], p[3]
	// A NULL start takes the end's place; the earlier of two ends starts.
	order := func(s, e value.Value) (value.Value, value.Value) {
		switch {
		case s.IsNull():
			return e, value.Null
		case !e.IsNull() && value.Compare(s, e) > 0:
			return e, s
		}
		return s, e
	}
	s1, e1 = order(s1, e1)
	s2, e2 = order(s2, e2)
	if s1.IsNull() || s2.IsNull() {
		return value.Null, nil
	}
	switch c := value.Compare(s1, s2); {
	case c > 0:
		if e2.IsNull() {
			return value.Null, nil
		}
		if value.Compare(s1, e2) < 0 {
			return value.NewBool(true), nil
		}
		if e1.IsNull() {
			return value.Null, nil
		}
		return value.NewBool(false), nil
	case c < 0:
		if e1.IsNull() {
			return value.Null, nil
		}
		if value.Compare(s2, e1) < 0 {
			return value.NewBool(true), nil
		}
		if e2.IsNull() {
			return value.Null, nil
		}
		return value.NewBool(false), nil
	}
	if e1.IsNull() || e2.IsNull() {
		return value.Null, nil
	}
	return value.NewBool(true), nil
}

func init() {
	strict("to_char", kinds(value.Interval, value.Text), value.TextType, func(a []value.Value) (value.Value, error) {
		return value.FormatInterval(a[0], rawText(a[1]))
	})
}
