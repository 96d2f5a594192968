package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// TestTimeRandom compares random time and timetz input, arithmetic,
// comparisons, casts and fields with PostgreSQL: ad hoc, then as views
// over a table of random rows under random inserts, updates and deletes.
func TestTimeRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 23)
	pick := func(n int64) int64 { return r.Int64N(2*n+1) - n }
	const day = 86400 * 1000000
	tod := func() int64 {
		switch r.IntN(8) {
		case 0:
			return day // 24:00:00
		case 1:
			return r.Int64N(24) * 3600 * 1000000
		case 2:
			return r.Int64N(86400) * 1000000
		}
		return r.Int64N(day)
	}
	zone := func() int32 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return int32(pick(57599)) // seconds, up to the limit
		}
		return int32(pick(15*4)) * 900 // quarter hours
	}
	tm := func() string { return "time '" + value.NewTime(tod()).String() + "'" }
	tz := func() string { return "timetz '" + value.NewTimeTZ(tod(), zone()).String() + "'" }
	span := func() string {
		s := value.Span{Months: int32(pick(20)), Days: int32(pick(40)), Micros: pick(3 * day)}
		if r.IntN(2) == 0 {
			s.Micros = s.Micros / 1000000 * 1000000
		}
		return "interval '" + value.NewInterval(s).String() + "'"
	}
	date := func() string { return "date '" + value.NewDate(pick(20000)).String() + "'" }
	ts := func() string {
		return "timestamp '" + value.NewTimestamp(value.Timestamp, pick(20000)*day+r.Int64N(day)).String() + "'"
	}
	// Spellings of a time PostgreSQL reads.
	spelled := func() string {
		h, m, s := r.IntN(26), r.IntN(62), r.IntN(62)
		switch r.IntN(6) {
		case 0:
			return fmt.Sprintf("'%d:%02d %s'", r.IntN(14), m, []string{"am", "PM"}[r.IntN(2)])
		case 1:
			return fmt.Sprintf("'%02d%02d%02d.%d'", h, m, s, r.IntN(1000))
		case 2:
			return fmt.Sprintf("'%02d%02d'", h, m)
		case 3:
			return fmt.Sprintf("'%d:%d:%d.%07d%+03d'", h, m, s, r.IntN(10000000), pick(16))
		case 4:
			return fmt.Sprintf("'2024-0%d-1%d %02d:%02d'", 1+r.IntN(9), r.IntN(10), h, m)
		}
		return fmt.Sprintf("'%02d:%02d:%02d.%06d'", h, m, s, r.IntN(1000000))
	}
	// Zones: fixed ones first (a timetz takes a named zone's offset now),
	// then zones with daylight saving time, and instants near their
	// changes, where a wall-clock time is skipped or repeated.
	zones := []string{"UTC", "EST", "+05", "UTC-03:30", "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo", "America/Sao_Paulo"}
	nearShift := func() string {
		months := []string{"03-10", "03-31", "10-27", "11-03", "04-07", "10-06"}
		return fmt.Sprintf("timestamp '%d-%s %02d:%02d:%02d'", 1990+r.IntN(60), months[r.IntN(len(months))], r.IntN(4), r.IntN(60), r.IntN(60))
	}
	units := []string{"hour", "minute", "second", "milliseconds", "microseconds", "epoch", "day", "timezone", "timezone_hour", "timezone_minute"}
	exprs := []func() string{
		func() string { return tm() + " + " + span() },
		func() string { return tm() + " - " + span() },
		func() string { return span() + " + " + tm() },
		func() string { return tz() + " + " + span() },
		func() string { return tz() + " - " + span() },
		func() string { return tm() + " - " + tm() },
		func() string { return date() + " + " + tm() },
		func() string { return date() + " + " + tz() },
		func() string { return date() + " - " + tm() },
		func() string { return ts() + " + " + tm() },
		func() string { return ts() + " - " + tm() },
		func() string { return fmt.Sprintf("%s < %s, %s = %s, %s >= %s", tm(), tm(), tm(), tm(), tm(), tm()) },
		func() string { return fmt.Sprintf("%s < %s, %s = %s, %s > %s", tz(), tz(), tz(), tz(), tz(), tz()) },
		func() string { return fmt.Sprintf("%s < %s, %s = %s", tm(), tz(), tz(), tm()) },
		func() string { return fmt.Sprintf("extract(%s from %s)", units[r.IntN(len(units))], tm()) },
		func() string { return fmt.Sprintf("extract(%s from %s)", units[r.IntN(len(units))], tz()) },
		func() string { return fmt.Sprintf("date_part('%s', %s)", units[r.IntN(len(units))], tm()) },
		func() string { return fmt.Sprintf("date_part('%s', %s)", units[r.IntN(len(units))], tz()) },
		func() string { return span() + "::time" },
		func() string { return ts() + "::time" },
		func() string { return tz() + "::time, " + tm() + "::timetz" },
		func() string { return fmt.Sprintf("%s::time(%d), %s::timetz(%d)", tm(), r.IntN(7), tz(), r.IntN(7)) },
		func() string { return spelled() + "::time" },
		func() string { return spelled() + "::timetz" },
		func() string { return fmt.Sprintf("%s::time(%d)", spelled(), r.IntN(7)) },
		func() string {
			return fmt.Sprintf("make_time(%d, %d, %d.%d)", pick(2)+r.Int64N(25), pick(2)+r.Int64N(61), pick(2)+r.Int64N(61), r.IntN(1000000))
		},
		func() string { return fmt.Sprintf("%s * %d.%d, %s / %d", tm(), pick(3), r.IntN(10), tm(), 1+r.IntN(7)) },
		func() string { return "- " + tm() },
		func() string {
			return fmt.Sprintf("date_trunc('%s', %s)", []string{"hour", "minute", "second"}[r.IntN(3)], tm())
		},
		func() string { return fmt.Sprintf("greatest(%s, %s), least(%s, %s)", tm(), tm(), tz(), tz()) },
		func() string { return fmt.Sprintf("%s AT TIME ZONE '%s'", nearShift(), zones[r.IntN(len(zones))]) },
		func() string {
			return fmt.Sprintf("%s::timestamptz AT TIME ZONE '%s'", nearShift(), zones[r.IntN(len(zones))])
		},
		func() string { return fmt.Sprintf("%s AT TIME ZONE %s", ts(), span()) },
		func() string {
			return fmt.Sprintf("%s AT TIME ZONE '%s', %s AT TIME ZONE %s", tz(), zones[r.IntN(4)], tm(), span())
		},
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	compareAdHoc(t, 600, exprs, r, run, runPG)

	// Views over random rows.
	setup := `CREATE TABLE tr (id int PRIMARY KEY, g int, a time, b time(2), z timetz, d date, i interval);
CREATE MATERIALIZED VIEW tr_arith AS SELECT id, a + i AS ai, a - b AS ab, d + a AS da, d + z AS dz, z - i AS zi, extract(epoch FROM z) AS ze, a::timetz < z AS lt, (d + a) AT TIME ZONE 'America/New_York' AS ny FROM tr;
CREATE MATERIALIZED VIEW tr_agg AS SELECT g, min(a) AS lo, max(z) AS hi, sum(b) AS sb, avg(a) AS aa, count(DISTINCT z) AS nz, count(*) AS n FROM tr GROUP BY g;
CREATE MATERIALIZED VIEW tr_by_zone AS SELECT z, count(*) AS n, max(b) AS b FROM tr GROUP BY z;
CREATE MATERIALIZED VIEW tr_filter AS SELECT id, a FROM tr WHERE a BETWEEN b - i AND b + i;
CREATE MATERIALIZED VIEW tr_join AS SELECT x.id AS l, y.id AS r, x.b FROM tr x JOIN tr y ON x.b = y.b AND x.id < y.id;
CREATE MATERIALIZED VIEW tr_top AS SELECT id, z FROM tr ORDER BY z DESC, id LIMIT 3;`
	setupBoth(t, run, runPG, setup)
	// Few distinct values, so that groups, joins and ties form.
	few := func(f func() string) func() string {
		pool := []string{"NULL"}
		for range 4 {
			pool = append(pool, f())
		}
		return func() string { return pool[r.IntN(len(pool))] }
	}
	fa, fb, fz := few(tm), few(tm), few(tz)
	ids := []int{}
	next := 1
	for step := 0; step < 80; step++ {
		var stmt string
		switch {
		case len(ids) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM tr WHERE id = %d", ids[k])
			ids = slices.Delete(ids, k, k+1)
		case len(ids) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE tr SET z = %s, b = %s WHERE id = %d", fz(), fb(), ids[r.IntN(len(ids))])
		default:
			stmt = fmt.Sprintf("INSERT INTO tr VALUES (%d, %d, %s, %s, %s, %s, %s)", next, r.IntN(3), fa(), fb(), fz(), date(), span())
			ids = append(ids, next)
			next++
		}
		applyBoth(t, e, run, runPG, stmt, []string{"tr_arith", "tr_agg", "tr_by_zone", "tr_filter", "tr_join", "tr_top"})
	}
}
