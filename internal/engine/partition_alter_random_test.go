package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestPartitionAlterRandom interleaves random ALTER TABLE of a
// partitioned table (columns added, renamed and dropped, defaults, NOT
// NULL, checks, ALTERs of partitions which PostgreSQL refuses, and the
// defaults, NOT NULL and checks a partition may have of its own) with
// random writes through the table and its partitions, in deltaview and in
// PostgreSQL, and compares the SQLSTATE of each statement, the rows of
// every partition, and views over the table and over partitions, after
// each.
func TestPartitionAlterRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 73)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TABLE ev (id int, at int, k text, amt int, PRIMARY KEY (id, at, k)) PARTITION BY RANGE (at);
CREATE TABLE ev_lo PARTITION OF ev FOR VALUES FROM (MINVALUE) TO (10);
CREATE TABLE ev_mid PARTITION OF ev FOR VALUES FROM (10) TO (20) PARTITION BY LIST (k);
CREATE TABLE ev_mid_a PARTITION OF ev_mid FOR VALUES IN ('a');
CREATE TABLE ev_mid_d PARTITION OF ev_mid DEFAULT;
CREATE TABLE ev_hi PARTITION OF ev DEFAULT;
CREATE MATERIALIZED VIEW per_k AS SELECT k, count(*) AS n, sum(amt) AS s FROM ev GROUP BY k;
CREATE MATERIALIZED VIEW mid AS SELECT id, at, amt FROM ev_mid WHERE amt > 2;
CREATE MATERIALIZED VIEW mid_d AS SELECT k, count(*) AS n FROM ev_mid_d GROUP BY k`
	setupBoth(t, run, runPG, setup)
	parts := []string{"ev", "ev_lo", "ev_mid", "ev_mid_a", "ev_mid_d", "ev_hi"}
	views := []string{"per_k", "mid", "mid_d"}
	evs := []string{"ev", "ev", "ev_lo", "ev_mid", "ev_mid_a", "ev_hi"}
	id := func() int { return 1 + r.IntN(8) }
	at := func() int { return -2 + r.IntN(34) }
	k := func() string { return []string{"'a'", "'b'", "'c'"}[r.IntN(3)] }
	amt := func() string {
		if r.IntN(6) == 0 {
			return "NULL"
		}
		return fmt.Sprint(r.IntN(9))
	}
	cols := []string{} // the columns the ALTERs added, in order
	next := 0
	stmt := func() string {
		tbl := evs[r.IntN(len(evs))]
		switch r.IntN(18) {
		case 0, 1, 2, 3:
			return fmt.Sprintf("INSERT INTO %s (id, at, k, amt) VALUES (%d, %d, %s, %s)", tbl, id(), at(), k(), amt())
		case 4:
			return fmt.Sprintf("UPDATE %s SET amt = %s, at = at + %d WHERE id = %d", tbl, amt(), r.IntN(7)-3, id())
		case 5:
			return fmt.Sprintf("DELETE FROM %s WHERE id = %d", tbl, id())
		case 6:
			next++
			return fmt.Sprintf("ALTER TABLE ev ADD COLUMN x%d int DEFAULT %d", next, r.IntN(5))
		case 7:
			if len(cols) > 0 {
				return fmt.Sprintf("ALTER TABLE ev DROP COLUMN %s", cols[r.IntN(len(cols))])
			}
		case 8:
			if len(cols) > 0 {
				next++
				return fmt.Sprintf("ALTER TABLE ev RENAME COLUMN %s TO x%d", cols[r.IntN(len(cols))], next)
			}
		case 9:
			return []string{"ALTER TABLE ev ALTER COLUMN amt SET NOT NULL", "ALTER TABLE ev ALTER COLUMN amt DROP NOT NULL"}[r.IntN(2)]
		case 10:
			return fmt.Sprintf("ALTER TABLE ev ALTER COLUMN amt SET DEFAULT %d", r.IntN(9))
		case 11:
			return fmt.Sprintf("ALTER TABLE ev ADD CONSTRAINT c%d CHECK (amt < %d)", r.IntN(2), 4+r.IntN(6))
		case 12:
			return fmt.Sprintf("ALTER TABLE ev DROP CONSTRAINT IF EXISTS c%d", r.IntN(2))
		case 13:
			return fmt.Sprintf("ALTER TABLE %s %s", []string{"ev_lo", "ev_mid", "ev_mid_a"}[r.IntN(3)],
				[]string{"ADD COLUMN z int", "DROP COLUMN amt", "ALTER COLUMN id TYPE bigint", "ALTER COLUMN id DROP NOT NULL", "DROP CONSTRAINT ev_pkey"}[r.IntN(5)])
		case 14:
			return []string{"ALTER TABLE ONLY ev ADD COLUMN z int", "ALTER TABLE ev DROP COLUMN at", "ALTER TABLE ev DROP COLUMN k", "ALTER TABLE ev ALTER COLUMN k TYPE varchar(3)"}[r.IntN(4)]
		case 15:
			// What a partition has of its own: defaults, NOT NULL, checks.
			return fmt.Sprintf("ALTER TABLE %s %s", []string{"ev_lo", "ev_mid", "ev_mid_a"}[r.IntN(3)],
				[]string{fmt.Sprintf("ALTER COLUMN amt SET DEFAULT %d", r.IntN(9)), "ALTER COLUMN amt DROP DEFAULT", "ALTER COLUMN amt SET NOT NULL",
					"ALTER COLUMN amt DROP NOT NULL", fmt.Sprintf("ADD CONSTRAINT o%d CHECK (amt > %d)", r.IntN(2), r.IntN(4)),
					fmt.Sprintf("DROP CONSTRAINT IF EXISTS o%d", r.IntN(2))}[r.IntN(6)])
		case 16:
			return fmt.Sprintf("INSERT INTO %s (id, at, k) VALUES (%d, %d, %s)", tbl, id(), at(), k())
		}
		return fmt.Sprintf("INSERT INTO ev (id, at, k) VALUES (%d, %d, %s)", id(), at(), k())
	}
	n := 300
	if testing.Short() {
		n = 80
	}
	codes := map[string]int{}
	alters := 0
	for i := 0; i < n; i++ {
		s := stmt()
		_, code := run(s)
		_, want := runPG(s)
		if code != want {
			t.Fatalf("%s: deltaview %q, PostgreSQL %q", s, code, want)
		}
		codes[code]++
		if code == "" {
			f := strings.Fields(s)
			switch {
			case len(f) > 5 && f[2] == "ev" && f[3] == "ADD" && f[4] == "COLUMN":
				cols = append(cols, f[5])
			case len(f) > 5 && f[2] == "ev" && f[3] == "DROP" && f[4] == "COLUMN":
				cols = slices.DeleteFunc(cols, func(c string) bool { return c == f[5] })
			case len(f) > 7 && f[2] == "ev" && f[3] == "RENAME":
				cols[slices.Index(cols, f[5])] = f[7]
			}
			if len(s) > 5 && s[:5] == "ALTER" {
				alters++
			}
		}
		for _, p := range parts {
			got, _ := run("SELECT * FROM " + p)
			exp, _ := runPG("SELECT * FROM " + p)
			if !slices.Equal(sorted(got), sorted(exp)) {
				t.Fatalf("after %s: %s holds\n%s\nPostgreSQL holds\n%s", s, p, show(sorted(got)), show(sorted(exp)))
			}
		}
		applyBoth(t, e, run, runPG, "SELECT 1", views)
	}
	t.Logf("statements by SQLSTATE: %v; ALTERs that succeeded: %d", codes, alters)
	if codes[""] < n/3 || alters < n/20 {
		t.Fatalf("too few statements or ALTERs succeed: %v, %d ALTERs", codes, alters)
	}
}
