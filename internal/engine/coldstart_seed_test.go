package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestSeededTopKColdStart builds top-ks over tables whose shared index is
// cut to a few rows, once seeded from the index (engine.SetSeedTopKs) and
// once fed every row, and checks that both engines hold the same views and
// operator states (rows kept, refills), equal to a recomputation, after the
// build and after changes that drain the reserves: ties across the kept
// rows' end under a projection, NULLs first and last, OFFSET, rows that
// project to the same row, a table without a key holding equal rows, no
// row passing, an index of every row read through a filter, and a view of
// partitions (fed either way). Filters and
// projections that fail on a row fail the build either way.
func TestSeededTopKColdStart(t *testing.T) {
	old := dataflow.SetBoundMin(8)
	defer dataflow.SetBoundMin(old)
	views := []string{
		"CREATE MATERIALIZED VIEW a AS SELECT id, v FROM t WHERE g < 5 ORDER BY v DESC NULLS LAST, id LIMIT 7 OFFSET 3",
		"CREATE MATERIALIZED VIEW b AS SELECT v, g FROM t ORDER BY v LIMIT 30",
		"CREATE MATERIALIZED VIEW c AS SELECT * FROM t ORDER BY v NULLS FIRST, s LIMIT 5",
		"CREATE MATERIALIZED VIEW d AS SELECT x FROM dup ORDER BY x DESC LIMIT 3",
		"CREATE MATERIALIZED VIEW e AS SELECT g, v FROM t WHERE v * 2 > 10 ORDER BY g, v LIMIT 4 OFFSET 20",
		"CREATE MATERIALIZED VIEW f AS SELECT id FROM t WHERE g > 100 ORDER BY id LIMIT 3",
		// b's index of every row, read through a filter.
		"CREATE MATERIALIZED VIEW h AS SELECT v, id FROM t WHERE g = 3 ORDER BY v LIMIT 4",
		"CREATE MATERIALIZED VIEW p AS SELECT DISTINCT ON (g) g, v, id FROM t ORDER BY g, v, id",
	}
	changes := []string{
		"DELETE FROM t WHERE v IS NULL OR v > 95",
		"DELETE FROM t WHERE v < 3; DELETE FROM dup WHERE x = 9",
		"UPDATE t SET v = v + 40 WHERE id % 7 = 0",
		"INSERT INTO t SELECT i, i % 9, NULL::int, 'n' FROM generate_series(5001, 5010) i; INSERT INTO dup VALUES (9), (9)",
	}
	state := func(seed bool) (snaps []string) {
		defer engine.SetSeedTopKs(engine.SetSeedTopKs(seed))
		e := engine.New()
		sess := e.NewSession()
		query := func(sql string) []string {
			t.Helper()
			var rows []string
			if err := sess.ExecScript(sql, func(r engine.Result) error {
				for _, row := range r.Rows {
					rows = append(rows, zset.FormatRow(row))
				}
				return nil
			}); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			return rows
		}
		query(`CREATE TABLE t (id int PRIMARY KEY, g int, v int, s text);
			INSERT INTO t SELECT i, i % 9, CASE WHEN i % 31 = 0 THEN NULL ELSE (i * 37) % 101 END, 's' || (i % 3)
			FROM generate_series(1, 2000) i;
			CREATE TABLE dup (x int);
			INSERT INTO dup SELECT i % 10 FROM generate_series(1, 500) i`)
		for _, v := range views {
			query(v)
		}
		snap := func(when string) {
			t.Helper()
			var b strings.Builder
			for _, v := range e.Views() {
				_, got, err := e.ViewRows(v)
				if err != nil {
					t.Fatal(err)
				}
				want, err := e.Recompute(v)
				if err != nil {
					t.Fatal(err)
				}
				g, w := formatRows(got), formatRows(want)
				if !slices.Equal(g, w) {
					t.Fatalf("seeded %v, %s, view %s: maintained %v, recomputed %v", seed, when, v, g, w)
				}
				fmt.Fprintf(&b, "%s: %v\n", v, g)
			}
			for _, r := range query("SELECT view, operator_id, kind, rows, refills FROM deltaview_operators WHERE kind = 'TopK' ORDER BY 1, 2") {
				fmt.Fprintln(&b, r)
			}
			snaps = append(snaps, when+"\n"+b.String())
		}
		snap("after the build")
		if seed {
			// The seeded top-k read the rows that may enter its kept rows,
			// not the relation's.
			in := query("SELECT input_changes FROM deltaview_operators WHERE view = 'a' AND kind = 'TopK'")
			if len(in) != 1 || in[0] != "(26)" {
				t.Errorf("seeded top-k a took %v input changes, want 26 (its 10 rows and a reserve of 16)", in)
			}
		}
		for i, c := range changes {
			query(c)
			snap(fmt.Sprintf("after change %d", i+1))
		}
		for _, q := range []string{
			"CREATE MATERIALIZED VIEW bad AS SELECT id FROM t WHERE 10 / (v - 50) > 0 ORDER BY id LIMIT 2",
			"CREATE MATERIALIZED VIEW bad AS SELECT id, 10 / (v - 50) AS q FROM t ORDER BY id LIMIT 2",
		} {
			err := sess.ExecScript(q, func(engine.Result) error { return nil })
			if pgerr.Code(err) != "22012" {
				t.Errorf("seeded %v, %s: %v, want division by zero", seed, q, err)
			}
		}
		if got := len(e.Views()); got != len(views) {
			t.Errorf("seeded %v: %d views after the failed builds, want %d", seed, got, len(views))
		}
		return snaps
	}
	seeded, fed := state(true), state(false)
	for i := range fed {
		if seeded[i] != fed[i] {
			t.Errorf("seeded:\n%s\nfed:\n%s", seeded[i], fed[i])
		}
	}
}

// formatRows returns rows printed and sorted.
func formatRows(rows []value.Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = zset.FormatRow(r)
	}
	slices.Sort(out)
	return out
}
