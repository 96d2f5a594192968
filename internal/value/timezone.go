package value

import (
	"strings"
	"sync"
	"time"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Zone is the time zone of AT TIME ZONE: a fixed offset (an abbreviation
// such as UTC or EST, a POSIX offset such as '+05' or 'UTC+3', or an
// interval) or a zone of the tz database (Europe/Paris), whose offset
// depends on the instant.
type Zone struct {
	east int64 // a fixed offset: seconds east of UTC
	loc  *time.Location
	// abbr is a fixed offset's name as DateStyles other than ISO print
	// it after a timestamptz: a POSIX zone's standard name ('UTC+3' is
	// UTC, '+05:30' has none), UTC's name (GMT); "" for the zero Zone
	// prints UTC.
	abbr string
}

// zoneCache holds the tz database zones read so far, by name; the
// database has a few hundred.
var (
	zoneMu    sync.RWMutex
	zoneCache = map[string]*time.Location{}
)

// LookupZone resolves a zone name as PostgreSQL does: the abbreviations
// first, then the tz database and POSIX offsets ('+05' and 'UTC+3' are
// west of UTC, as in POSIX); 22023 when none knows it.
func LookupZone(name string) (Zone, error) {
	if len(name) <= 8 {
		var low [8]byte
		for i := range len(name) {
			c := name[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			low[i] = c
		}
		if a, ok := zoneAbbrevTable[string(low[:len(name)])]; ok {
			if a.zone == "" {
				return Zone{east: a.east}, nil
			}
			if loc, ok := loadZone(a.zone); ok {
				return Zone{loc: loc}, nil
			}
		}
	}
	if west, ok := posixOffset(name); ok {
		return Zone{east: -west}, nil
	}
	if name != "" && !strings.EqualFold(name, "local") {
		zoneMu.RLock()
		loc := zoneCache[name]
		zoneMu.RUnlock()
		if loc != nil {
			return Zone{loc: loc}, nil
		}
		// LoadLocation reads the zone's file: once per name, not per row.
		if loc, err := time.LoadLocation(name); err == nil {
			zoneMu.Lock()
			zoneCache[name] = loc
			zoneMu.Unlock()
			return Zone{loc: loc}, nil
		}
	}
	return Zone{}, pgerr.New(pgerr.InvalidParameter, "time zone %q not recognized", name)
}

// IntervalZone is a zone given as an interval east of UTC; 22023 when it
// has months or days.
func IntervalZone(v Value) (Zone, error) {
	s := v.Span()
	if s.Months != 0 || s.Days != 0 {
		return Zone{}, pgerr.New(pgerr.InvalidParameter, "interval time zone %q must not include months or days", v.String())
	}
	return Zone{east: s.Micros / usecsPerSec}, nil
}

// posixOffset reads a POSIX zone without daylight rules: an optional
// name (three letters or more, or <…>), then an offset [+-]h[h][:mm[:ss]]
// in seconds west of UTC.
func posixOffset(s string) (west int64, ok bool) {
	i := 0
	if strings.HasPrefix(s, "<") {
		j := strings.IndexByte(s, '>')
		if j < 0 {
			return 0, false
		}
		i = j + 1
	} else {
		for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			i++
		}
		if i > 0 && i < 3 {
			return 0, false
		}
	}
	sign := int64(1)
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		if s[i] == '-' {
			sign = -1
		}
		i++
	}
	var parts [3]int64
	n := 0
	for n < 3 {
		st := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && i-st < 3 {
			parts[n] = parts[n]*10 + int64(s[i]-'0')
			i++
		}
		if i == st {
			return 0, false
		}
		n++
		if i < len(s) && s[i] == ':' {
			i++
			continue
		}
		break
	}
	if i != len(s) || parts[0] > 167 || parts[1] > 59 || parts[2] > 59 {
		return 0, false
	}
	return sign * (parts[0]*3600 + parts[1]*60 + parts[2]), true
}

// offsetAt is the zone's offset east of UTC, in seconds, at the instant
// us (microseconds since 2000-01-01 UTC).
func (z Zone) offsetAt(us int64) int64 {
	if z.loc == nil {
		return z.east
	}
	// Far future instants move back by whole 400-year cycles, over which
	// the calendar and the zone's rules repeat: Go's zone lookup does not
	// reach PostgreSQL's last year.
	const cycle = 146097 * usecsPerDay
	if far := 10 * cycle; us > far { // past year 6000: into years 5600 to 6000
		us = far - cycle + (us-far)%cycle
	}
	_, off := time.UnixMicro(us - unixEpochMicros).In(z.loc).Zone()
	return int64(off)
}

// offsetOfLocal is the offset of the zone's wall-clock time local, as
// PostgreSQL's DetermineTimeZoneOffset picks it: in a spring-forward gap
// the offset before the change, in a fall-back overlap the one after.
func (z Zone) offsetOfLocal(local int64) int64 {
	if z.loc == nil {
		return z.east
	}
	before, after := z.offsetAt(local-usecsPerDay), z.offsetAt(local+usecsPerDay)
	if before == after {
		return z.offsetAt(local - before*usecsPerSec)
	}
	bt, at := local-before*usecsPerSec, local-after*usecsPerSec
	bBefore, aBefore := z.offsetAt(bt) == before, z.offsetAt(at) == before
	switch {
	case bBefore && aBefore:
		return before
	case !bBefore && !aBefore:
		return after
	case bt > at:
		return before
	}
	return after
}

// AtTimeZone is v AT TIME ZONE z: a timestamp read as z's wall-clock time
// gives a timestamptz, a timestamptz gives z's wall-clock timestamp, a
// timetz moves to z's offset at the instant now (microseconds since
// 2000-01-01 UTC, the transaction's time, for zones whose offset varies).
func AtTimeZone(z Zone, v Value, now int64) (Value, error) {
	switch v.kind {
	case Timestamp, TimestampTZ:
		if !tsIsFinite(v.n) {
			return NewTimestamp(Timestamp+TimestampTZ-v.kind, v.n), nil
		}
		var us int64
		if v.kind == Timestamp {
			us = v.n - z.offsetOfLocal(v.n)*usecsPerSec
		} else {
			us = v.n + z.offsetAt(v.n)*usecsPerSec
		}
		if !validTimestamp(us) {
			return Null, pgerr.New(pgerr.DatetimeOverflow, "timestamp out of range")
		}
		return NewTimestamp(Timestamp+TimestampTZ-v.kind, us), nil
	case TimeTZ:
		us, zone := v.TimeTZ()
		east := z.offsetAt(now)
		return NewTimeTZ(wrapDay(us+(int64(zone)+east)*usecsPerSec), int32(-east)), nil
	}
	return Null, pgerr.New(pgerr.UndefinedFunction, "function timezone(unknown, %s) does not exist", v.kind)
}
