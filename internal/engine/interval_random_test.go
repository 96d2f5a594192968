package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// TestIntervalRandom compares random interval arithmetic, comparisons and
// date/time functions with PostgreSQL: ad hoc, then as views over a table
// of random rows under random inserts and deletes.
func TestIntervalRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 17)
	pick := func(n int64) int64 { return r.Int64N(2*n+1) - n }
	span := func() string {
		s := value.Span{Months: int32(pick(40)), Days: int32(pick(60)), Micros: pick(4 * 86400 * 1000000)}
		switch r.IntN(4) {
		case 0:
			s.Micros = s.Micros / 1000000 * 1000000
		case 1:
			s.Months = 0
		}
		return "interval '" + value.NewInterval(s).String() + "'"
	}
	date := func() string { return "date '" + value.NewDate(pick(20000)).String() + "'" }
	ts := func() string {
		return "timestamp '" + value.NewTimestamp(value.Timestamp, pick(20000)*86400*1000000+pick(86400*1000000)).String() + "'"
	}
	units := []string{"year", "month", "day", "hour", "minute", "second", "milliseconds", "quarter", "decade", "century", "epoch"}
	exprs := []func() string{
		func() string { return span() + " + " + span() },
		func() string { return span() + " - " + span() },
		func() string { return fmt.Sprintf("%s < %s, %s = %s", span(), span(), span(), span()) },
		func() string { return date() + " + " + span() },
		func() string { return date() + " - " + span() },
		func() string { return ts() + " + " + span() },
		func() string { return ts() + " - " + ts() },
		func() string { return fmt.Sprintf("%s * %d", span(), pick(5)) },
		func() string { return fmt.Sprintf("%s / %d.5", span(), 1+r.IntN(4)) },
		func() string { return "- " + span() },
		func() string { return fmt.Sprintf("extract(%s from %s)", units[r.IntN(len(units))], span()) },
		func() string { return fmt.Sprintf("extract(%s from %s)", units[r.IntN(len(units))], ts()) },
		func() string { return fmt.Sprintf("date_trunc('%s', %s)", units[r.IntN(len(units)-1)], ts()) },
		func() string { return fmt.Sprintf("date_trunc('%s', %s)", units[r.IntN(len(units)-1)], span()) },
		func() string { return fmt.Sprintf("age(%s, %s)", ts(), ts()) },
		func() string { return fmt.Sprintf("justify_interval(%s)", span()) },
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	compareAdHoc(t, 400, exprs, r, run, runPG)

	// Views over random rows.
	setup := `CREATE TABLE r (id int PRIMARY KEY, g int, d date, t timestamp, a interval, b interval);
CREATE MATERIALIZED VIEW r_arith AS SELECT id, d + a AS da, t - b AS tb, a + b AS ab, a * 2 AS a2, extract(day FROM a) AS ad,
  date_trunc('month', t + a) AS tm, a < b AS lt FROM r;
CREATE MATERIALIZED VIEW r_agg AS SELECT g, sum(a) AS sa, avg(b) AS ab, min(a + b) AS lo, max(d - b) AS hi, count(*) AS n FROM r GROUP BY g;
CREATE MATERIALIZED VIEW r_filter AS SELECT id, t FROM r WHERE t BETWEEN d - a AND d + b;
CREATE TABLE q (id int PRIMARY KEY, x interval);
CREATE MATERIALIZED VIEW q_join AS SELECT q1.id AS l, q2.id AS r, q1.x + q2.x AS s FROM q q1 JOIN q q2 ON q1.x = q2.x;
CREATE MATERIALIZED VIEW q_exists AS SELECT id FROM q WHERE EXISTS (SELECT 1 FROM q q2 WHERE q2.x = q.x + interval '1 day' AND q2.id <> q.id);
CREATE MATERIALIZED VIEW q_group AS SELECT x, count(*) AS n, sum(id) AS s FROM q GROUP BY x;
CREATE MATERIALIZED VIEW q_distinct AS SELECT DISTINCT x FROM q;
CREATE MATERIALIZED VIEW q_minmax AS SELECT min(x) AS lo, max(x) AS hi, count(DISTINCT x) AS d FROM q;
CREATE MATERIALIZED VIEW q_setops AS SELECT x FROM q WHERE id % 2 = 0 INTERSECT SELECT x FROM q WHERE id % 2 = 1;
CREATE MATERIALIZED VIEW q_dagg AS SELECT array_agg(DISTINCT x) AS a, count(DISTINCT x) AS d FROM q;
CREATE MATERIALIZED VIEW q_rec AS WITH RECURSIVE r(x) AS (SELECT x FROM q WHERE x IS NOT NULL
  UNION SELECT x - interval '1 day' FROM r WHERE x > interval '0 days') SELECT x FROM r;`
	setupBoth(t, run, runPG, setup)
	ids := []int{}
	next := 1
	for step := 0; step < 60; step++ {
		var stmt string
		if len(ids) > 0 && r.IntN(3) == 0 {
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM r WHERE id = %d", ids[k])
			ids = slices.Delete(ids, k, k+1)
		} else {
			stmt = fmt.Sprintf("INSERT INTO r VALUES (%d, %d, %s, %s, %s, %s)", next, r.IntN(3), date(), ts(), span(), span())
			ids = append(ids, next)
			next++
		}
		// Intervals of few lengths, written in several ways.
		pool := []string{"1 mon", "30 days", "720:00:00", "1 day", "24:00:00", "1 mon 1 day", "31 days", "-1 day", "-24:00:00", "NULL"}
		stmts := []string{stmt, fmt.Sprintf("INSERT INTO q VALUES (%d, %s)", step, sqlLit(pool[r.IntN(len(pool))]))}
		if step > 5 && r.IntN(2) == 0 {
			stmts = append(stmts, fmt.Sprintf("DELETE FROM q WHERE id = %d", r.IntN(step)))
		}
		for _, stmt := range stmts {
			if _, code := run(stmt); code != "" {
				t.Fatalf("%s: %s", stmt, code)
			}
			if _, code := runPG(stmt); code != "" {
				t.Fatalf("PostgreSQL: %s: %s", stmt, code)
			}
		}
		for _, v := range []string{"r_arith", "r_agg", "r_filter", "q_join", "q_exists"} {
			compareView(t, e, stmt, v, runPG)
		}
		// Where rows of several representations stand for one, PostgreSQL
		// shows any of them; the view must show the same lengths, in a
		// representation some row has, and what recomputing it gives.
		present, _ := run("SELECT x FROM q")
		for _, v := range []string{"q_group", "q_distinct", "q_minmax", "q_setops", "q_dagg", "q_rec"} {
			_, rows, err := e.ViewRows(v)
			if err != nil {
				t.Fatal(err)
			}
			re, err := e.Recompute(v)
			if err != nil {
				t.Fatal(err)
			}
			got := sorted(rowTexts(rows))
			if want := sorted(rowTexts(re)); !slices.Equal(got, want) {
				t.Fatalf("after %s: view %s holds\n%s\nrecomputing it gives\n%s", stmt, v, show(got), show(want))
			}
			want, code := runPG("SELECT * FROM " + v)
			if code != "" {
				t.Fatalf("PostgreSQL: %s", code)
			}
			if g, w := sorted(byLength(t, got, nil)), sorted(byLength(t, want, nil)); !slices.Equal(g, w) {
				t.Fatalf("after %s: view %s holds\n%s\nPostgreSQL computes\n%s", stmt, v, show(got), show(sorted(want)))
			}
			if v != "q_rec" { // its rows are derived from q's
				byLength(t, got, present)
			}
		}
	}
}

// byLength returns rows (rowTexts) with each interval field replaced by
// its length, so that rows differing only in how their intervals are
// written compare equal; with present (the texts of the rows a view reads)
// it also fails when a field is an interval no row has.
func byLength(t *testing.T, rows, present []string) []string {
	t.Helper()
	out := make([]string, len(rows))
	for i, r := range rows {
		fields := strings.Split(r, "\x00|")
		for j, f := range fields {
			if strings.Trim(f, "0123456789") == "" {
				continue // a count or sum, not an interval
			}
			if inner, ok := strings.CutPrefix(f, "{"); ok { // an array of intervals
				elems := strings.Split(strings.TrimSuffix(inner, "}"), ",")
				for i, e := range elems {
					elems[i] = byLength(t, []string{strings.Trim(e, `"`)}, present)[0]
				}
				fields[j] = strings.Join(elems, ",")
				continue
			}
			v, err := value.Parse(f, value.IntervalType)
			if err != nil {
				continue
			}
			if present != nil && !slices.Contains(present, f) {
				t.Fatalf("a view shows %s, which no row has (%v)", f, present)
			}
			fields[j] = fmt.Sprintf("%x", value.AppendKey(nil, v))
		}
		out[i] = strings.Join(fields, "\x00|")
	}
	return out
}

// compareView fails unless view v holds the rows PostgreSQL computes.
func compareView(t *testing.T, e *engine.Engine, stmt, v string, runPG func(string) ([]string, string)) {
	t.Helper()
	_, rows, err := e.ViewRows(v)
	if err != nil {
		t.Fatal(err)
	}
	want, code := runPG("SELECT * FROM " + v)
	if code != "" {
		t.Fatalf("PostgreSQL: %s", code)
	}
	if got := sorted(rowTexts(rows)); !slices.Equal(got, sorted(want)) {
		t.Fatalf("after %s: view %s holds\n%s\nPostgreSQL computes\n%s", stmt, v, show(got), show(sorted(want)))
	}
}

func sqlLit(s string) string {
	if s == "NULL" {
		return s
	}
	return "'" + s + "'"
}

// compareAdHoc runs n queries SELECT x, x one of exprs picked at random,
// with run and runPG, and fails at the first whose rows or SQLSTATE differ.
func compareAdHoc(t *testing.T, n int, exprs []func() string, r *rand.Rand, run, runPG func(string) ([]string, string)) {
	t.Helper()
	for range n {
		q := "SELECT " + exprs[r.IntN(len(exprs))]()
		got, gotErr := run(q)
		want, wantErr := runPG(q)
		if gotErr != "" || wantErr != "" {
			if gotErr != wantErr {
				t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q (%v)", q, gotErr, wantErr, want)
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", q, show(got), show(want))
		}
	}
}
