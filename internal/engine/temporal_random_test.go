package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestTemporalRandom maintains views with temporal filters under random
// transactions and random advances of a pinned clock, and after each
// compares every view with PostgreSQL running the view's query with now()
// and current_date replaced by the same instant. Subscribers must see
// strictly increasing timestamps, deltas that add up to the view, and, in
// a clock advance, one instant per step: the rows leaving last_hour in one
// step all have the same ts.
func TestTemporalRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 18)

	e := engine.New()
	sess := e.NewSession()
	defer sess.Close()
	run := func(sql string) ([]string, string) {
		var rows []value.Row
		err := sess.ExecScript(sql, func(res engine.Result) error {
			if res.HasRows {
				rows = res.Rows
			}
			return nil
		})
		if err != nil {
			return nil, pgerr.Code(err) + " " + err.Error()
		}
		return rowTexts(rows), ""
	}
	runPG := func(sql string) ([]string, string) {
		rs, err := pg.PgConn().Exec(ctx, sql).ReadAll()
		if err != nil {
			return nil, pgerr.Code(pgerr.Wrap(err)) + " " + err.Error()
		}
		if len(rs) == 0 || rs[len(rs)-1].CommandTag.String() == "" {
			return nil, ""
		}
		return pgTexts(pgRows(rs[len(rs)-1])), ""
	}
	both := func(stmt string) {
		t.Helper()
		if _, code := run(stmt); code != "" {
			t.Fatalf("%s: %s", stmt, code)
		}
		if _, code := runPG(stmt); code != "" {
			t.Fatalf("PostgreSQL: %s: %s", stmt, code)
		}
	}
	const hour = int64(3600_000000)
	now := int64(26*365+6)*24*hour + 9*hour // 2025-12-31 09:00 UTC, in microseconds since 2000
	tsLit := func(at int64) string { return value.NewTimestamp(value.TimestampTZ, at).String() }
	if _, code := run(fmt.Sprintf("SET deltaview.clock = '%s'", tsLit(now))); code != "" {
		t.Fatal(code)
	}
	if _, code := runPG("SET TimeZone = 'UTC'"); code != "" {
		t.Fatal(code)
	}
	both("CREATE TABLE o (id int PRIMARY KEY, g int, ts timestamptz, t timestamp, d date, dur interval)")
	views := []struct{ name, query string }{
		{"last_hour", "SELECT id, g, ts FROM o WHERE ts > now() - interval '1 hour'"},
		{"around", "SELECT id FROM o WHERE ts + interval '30 minutes' >= now() AND ts < now() + interval '2 hours' AND g <> 1"},
		{"per_g", "SELECT g, count(*) AS n, sum(id) AS s FROM o WHERE t >= now() - interval '1 day 3 hours' GROUP BY g"},
		{"days", "SELECT id, d FROM o WHERE d >= current_date - 2 AND d < current_date + 1"},
		{"today", "SELECT id FROM o WHERE d = current_date"},
		{"month", "SELECT id FROM o WHERE ts + interval '1 month' > now()"},
		{"lasting", "SELECT id FROM o WHERE ts + dur > current_timestamp"},
		{"pairs", "SELECT a.id, b.id AS bid FROM o a JOIN o b ON a.g = b.g WHERE a.ts > now() - interval '2 hours' AND b.d >= current_date - 1"},
		{"groups", "SELECT DISTINCT g FROM o WHERE t < now() - interval '10 minutes'"},
	}
	type sub struct {
		mu      sync.Mutex
		rows    map[string]int64
		lastTS  uint64
		leaving [][]string // the ts of the rows that left last_hour, per step
	}
	subs := map[string]*sub{}
	for _, v := range views {
		if _, code := run("CREATE MATERIALIZED VIEW " + v.name + " AS " + v.query); code != "" {
			t.Fatalf("%s: %s", v.name, code)
		}
		s := &sub{rows: map[string]int64{}}
		subs[v.name] = s
		_, rows, err := e.ViewRows(v.name)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rowTexts(rows) {
			s.rows[row]++
		}
		name := v.name
		stop, err := e.Subscribe(v.name, func(ts uint64, d zset.ZSet) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if ts <= s.lastTS {
				t.Errorf("%s: a delta at ts %d after one at %d", name, ts, s.lastTS)
			}
			s.lastTS = ts
			var left []string
			for _, en := range d {
				text := rowTexts([]value.Row{en.Row})[0]
				s.rows[text] += en.W
				if s.rows[text] == 0 {
					delete(s.rows, text)
				}
				if name == "last_hour" && en.W < 0 {
					left = append(left, en.Row[2].String())
				}
			}
			s.leaving = append(s.leaving, left)
		})
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
	}
	pgQuery := func(q string) string {
		date, _ := value.Cast(value.NewTimestamp(value.TimestampTZ, now), value.DateType, true)
		q = strings.ReplaceAll(q, "now()", "timestamptz '"+tsLit(now)+"'")
		q = strings.ReplaceAll(q, "current_timestamp", "timestamptz '"+tsLit(now)+"'")
		return strings.ReplaceAll(q, "current_date", "date '"+date.String()+"'")
	}
	check := func(what string) {
		t.Helper()
		for _, v := range views {
			_, rows, err := e.ViewRows(v.name)
			if err != nil {
				t.Fatal(err)
			}
			want, code := runPG(pgQuery(v.query))
			if code != "" {
				t.Fatalf("PostgreSQL: %s: %s", pgQuery(v.query), code)
			}
			got := sorted(rowTexts(rows))
			if !slices.Equal(got, sorted(want)) {
				t.Fatalf("after %s (clock %s): view %s holds\n%s\nPostgreSQL computes\n%s", what, tsLit(now), v.name, show(got), show(sorted(want)))
			}
			s := subs[v.name]
			s.mu.Lock()
			var fromDeltas []string
			for row, w := range s.rows {
				for i := int64(0); i < w; i++ {
					fromDeltas = append(fromDeltas, row)
				}
			}
			s.mu.Unlock()
			if !slices.Equal(sorted(fromDeltas), got) {
				t.Fatalf("after %s: the deltas of %s add up to\n%s\nthe view holds\n%s", what, v.name, show(sorted(fromDeltas)), show(got))
			}
		}
	}
	randTS := func() string {
		at := now + r.Int64N(6*24*hour) - 3*24*hour
		switch r.IntN(3) {
		case 0:
			at -= at % 60_000000 // whole minutes
		case 1:
			at -= at % hour
		}
		if r.IntN(12) == 0 {
			return "NULL"
		}
		return "'" + tsLit(at) + "'"
	}
	randDate := func() string {
		if r.IntN(12) == 0 {
			return "NULL"
		}
		d := value.NewDate(now/(24*hour) + r.Int64N(9) - 4)
		return "'" + d.String() + "'"
	}
	durs := []string{"'1 hour'", "'1 day'", "'1 mon'", "'-2 hours'", "'1 mon -29 days'", "NULL"}
	var ids []int
	var stamps []int64 // instants some row may flip at
	next := 1
	steps := 300
	if testing.Short() {
		steps = 60
	}
	for step := 0; step < steps; step++ {
		var what string
		switch k := r.IntN(10); {
		case k < 4 || len(ids) == 0:
			n := 1 + r.IntN(3)
			var vals []string
			for i := 0; i < n; i++ {
				ts := randTS()
				vals = append(vals, fmt.Sprintf("(%d, %d, %s, %s, %s, %s)", next, r.IntN(3), ts, strings.Replace(randTS(), "+00", "", 1), randDate(), durs[r.IntN(len(durs))]))
				if ts != "NULL" {
					v, err := value.Cast(value.NewText(value.Text, strings.Trim(ts, "'")), value.TimestampTZType, true)
					if err == nil {
						stamps = append(stamps, v.Int())
					}
				}
				ids = append(ids, next)
				next++
			}
			what = "INSERT INTO o VALUES " + strings.Join(vals, ", ")
			both(what)
		case k < 5:
			i := r.IntN(len(ids))
			what = fmt.Sprintf("DELETE FROM o WHERE id = %d", ids[i])
			ids = slices.Delete(ids, i, i+1)
			both(what)
		case k < 6:
			what = fmt.Sprintf("UPDATE o SET ts = %s, d = %s WHERE id = %d", randTS(), randDate(), ids[r.IntN(len(ids))])
			both(what)
		default:
			var by int64
			switch r.IntN(5) {
			case 0:
				by = 1
			case 1:
				by = r.Int64N(hour)
			case 2:
				by = r.Int64N(30 * hour)
			case 3:
				by = r.Int64N(4 * 24 * hour)
			default:
				// To a row's instant exactly, or just before it.
				if len(stamps) > 0 {
					offs := []int64{hour, 30 * 60_000000, -2 * hour, 2 * hour, 27 * hour, 10 * 60_000000}
					at := stamps[r.IntN(len(stamps))] + offs[r.IntN(len(offs))] - r.Int64N(2)
					by = max(at-now, 0)
				}
			}
			now += by
			what = "SET deltaview.clock = '" + tsLit(now) + "'"
			s := subs["last_hour"]
			s.mu.Lock()
			s.leaving = nil
			s.mu.Unlock()
			if _, code := run(what); code != "" {
				t.Fatalf("%s: %s", what, code)
			}
			s.mu.Lock()
			for _, left := range s.leaving {
				for _, ts := range left {
					if ts != left[0] {
						t.Fatalf("%s: rows of different instants (%s, %s) left last_hour in one step", what, left[0], ts)
					}
				}
			}
			s.mu.Unlock()
		}
		check(what)
	}
}
