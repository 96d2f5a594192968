package expr

import (
	"math"
	"time"

	"github.com/deltaview/deltaview/internal/value"
)

// pg_sleep(seconds), pg_sleep_for(interval) and pg_sleep_until(timestamptz)
// wait, as in PostgreSQL, until the instant their argument names: a
// duration from now (pg_sleep_for adds the interval to clock_timestamp(),
// months and days included) or an instant ('infinity' waits for ever, a
// past one, NaN or a negative duration not at all). They are volatile, so
// a view refuses them; they return void. Bound in a session's statement,
// a SleepCall stops at the statement's deadline with its error
// (statement_timeout).
func init() {
	for name, k := range sleepParams {
		register(&FuncDef{Name: name, Volatile: true, Strict: true, Params: kinds(k), Result: value.VoidType,
			Eval: func(a []value.Value) (value.Value, error) {
				w, err := sleepEnd(name, a[0])
				if err != nil {
					return value.Null, err
				}
				return sleepUntil(nil, w)
			}})
	}
}

// sleepParams are the sleep functions and the kind of their argument.
var sleepParams = map[string]value.Kind{"pg_sleep": value.Float8, "pg_sleep_for": value.Interval, "pg_sleep_until": value.TimestampTZ}

// IsSleepFunc reports whether name is one of the sleep functions, which a
// session's statement binds as a SleepCall.
func IsSleepFunc(name string) bool {
	_, ok := sleepParams[name]
	return ok
}

// wake is when a sleep ends; forever for a wait without end.
type wake struct {
	at      time.Time
	forever bool
}

// sleepEnd is when the sleep function name called with v ends.
func sleepEnd(name string, v value.Value) (wake, error) {
	switch name {
	case "pg_sleep":
		return sleepSeconds(v.Float()), nil
	case "pg_sleep_for":
		return sleepFor(v)
	}
	return sleepInstant(v.Int()), nil
}

// sleepSeconds is the end of pg_sleep(secs) from now.
func sleepSeconds(secs float64) wake {
	switch {
	case math.IsInf(secs, 1):
		return wake{forever: true}
	case !(secs > 0): // NaN and negative durations wait not at all
		return wake{at: time.Now()}
	case secs > float64(math.MaxInt64/int64(time.Second)): // beyond Go's durations: centuries
		return wake{forever: true}
	}
	return wake{at: time.Now().Add(time.Duration(secs * float64(time.Second)))}
}

// sleepFor is the end of pg_sleep_for(iv): clock_timestamp() + iv.
func sleepFor(iv value.Value) (wake, error) {
	end, err := value.Add(value.NewTimestamp(value.TimestampTZ, time.Now().UnixMicro()-pgEpochMicros), iv)
	if err != nil {
		return wake{}, err
	}
	return sleepInstant(end.Int()), nil
}

// sleepInstant is the end of pg_sleep_until(ts), ts in microseconds since
// 2000-01-01 UTC.
func sleepInstant(us int64) wake {
	switch us {
	case value.TimestampPosInfinity:
		return wake{forever: true}
	case value.TimestampNegInfinity:
		return wake{at: time.Now()}
	}
	return wake{at: time.UnixMicro(us + pgEpochMicros)}
}

// sleepUntil waits until w, or until c's deadline when that comes first,
// and then returns c's error for it.
func sleepUntil(c *StmtClock, w wake) (value.Value, error) {
	late := c != nil && !c.Deadline.IsZero() && c.Late != nil && (w.forever || c.Deadline.Before(w.at))
	if late {
		w = wake{at: c.Deadline}
	}
	var intr func() error
	if c != nil {
		if c.Interrupts != nil {
			intr = c.Interrupts.Interrupted
		}
	}
	for w.forever || time.Until(w.at) > 0 {
		if intr == nil && w.forever {
			time.Sleep(math.MaxInt64)
		}
		d := time.Until(w.at)
		if intr != nil && (w.forever || d > sleepPoll) {
			d = sleepPoll // to see an interrupt meanwhile
		}
		time.Sleep(d)
		if intr != nil {
			if err := intr(); err != nil {
				return value.Null, err
			}
		}
	}
	if late {
		return value.Null, c.Late()
	}
	return value.VoidValue, nil
}

// sleepPoll is how often a sleep looks for an interrupt.
const sleepPoll = 20 * time.Millisecond

// SleepCall is a sleep function in a session's statement: it wakes at
// the statement's deadline, if that comes first, and fails with its error.
type SleepCall struct {
	C   *StmtClock
	Def *FuncDef
	Arg Expr
}

var _ Expr = (*SleepCall)(nil)

func (c *SleepCall) Type() value.Type { return value.VoidType }
func (c *SleepCall) Volatile() bool   { return true }
func (*SleepCall) expr()              {}
func (c *SleepCall) String() string   { return c.Def.Name + "(" + c.Arg.String() + ")" }

// Eval implements Expr.
func (c *SleepCall) Eval(row value.Row) (value.Value, error) {
	v, err := c.Arg.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	w, err := sleepEnd(c.Def.Name, v)
	if err != nil {
		return value.Null, err
	}
	return sleepUntil(c.C, w)
}
