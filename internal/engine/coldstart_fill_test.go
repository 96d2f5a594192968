package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestSeededFillColdStart builds top-ks over a table of 40,000 rows, a
// third of them replaced since it was loaded, three ways: seeded with the
// index filled in the pass that counts (on two goroutines where every
// filter compares a column with a constant), seeded with the index loaded
// beside a count of its own, and fed every row. It checks that the three
// engines hold the same views, top-k states (rows kept, refills) and
// index extensions after the build, and give the same deltas to the same
// random transactions after it (deletions that drain the reserves and
// extend the indexes, updates, inserts), each view equal to a
// recomputation; that the filled build leaves the table as it was (not
// laid out); and that a filter failing on a row fails every build with
// the same error.
func TestSeededFillColdStart(t *testing.T) {
	old := dataflow.SetBoundMin(64)
	defer dataflow.SetBoundMin(old)
	const n = 40_000
	views := []string{
		// The benchmark's shape: one filter of a column and a constant.
		"CREATE MATERIALIZED VIEW a AS SELECT id, g, v FROM t WHERE g < 500 ORDER BY v DESC, id LIMIT 50",
		"CREATE MATERIALIZED VIEW b AS SELECT id, v FROM t WHERE g >= 100 AND g < 300 ORDER BY v NULLS FIRST, id LIMIT 10 OFFSET 5",
		"CREATE MATERIALIZED VIEW c AS SELECT * FROM t ORDER BY v, s LIMIT 5",
		// Ties under a projection.
		"CREATE MATERIALIZED VIEW d AS SELECT v, s FROM t WHERE g < 700 ORDER BY v DESC LIMIT 20",
		// A filter that is not a column's comparison: one goroutine.
		"CREATE MATERIALIZED VIEW e AS SELECT id FROM t WHERE v * 2 > 100 ORDER BY id LIMIT 3",
		"CREATE MATERIALIZED VIEW f AS SELECT id, v FROM t WHERE g > 2000 ORDER BY v LIMIT 3",
	}
	type result struct {
		snaps []string
		moved int
	}
	run := func(seed, fill bool) (res result) {
		defer engine.SetSeedTopKs(engine.SetSeedTopKs(seed))
		defer engine.SetFillSeeded(engine.SetFillSeeded(fill))
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
		query(fmt.Sprintf(`CREATE TABLE t (id int PRIMARY KEY, g int, v int, s text);
			INSERT INTO t SELECT i, CASE WHEN i %% 53 = 0 THEN NULL ELSE (i * 7) %% 1000 END,
				CASE WHEN i %% 31 = 0 THEN NULL ELSE (i * 37) %% 1009 END, 's' || (i %% 3)
			FROM generate_series(1, %d) i;
			UPDATE t SET s = s || '' WHERE id %% 3 = 0`, n))
		moved := engine.TableMoved(e, "t")
		if moved < n/8 {
			t.Fatalf("%d rows of t moved, want %d or more for a layout", moved, n/8)
		}
		for _, v := range views {
			query(v)
		}
		res.moved = engine.TableMoved(e, "t")
		deltas := map[string][]string{}
		for _, v := range e.Views() {
			cancel, err := e.Subscribe(v, func(_ uint64, d zset.ZSet) {
				for _, x := range d {
					deltas[v] = append(deltas[v], fmt.Sprintf("%+d %s", x.W, zset.FormatRow(x.Row)))
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			defer cancel()
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
					t.Fatalf("seed %v fill %v, %s, view %s: maintained %v, recomputed %v", seed, fill, when, v, g, w)
				}
				slices.Sort(deltas[v])
				fmt.Fprintf(&b, "%s: %v\n  delta %v\n", v, g, deltas[v])
				deltas[v] = nil
			}
			for _, r := range query("SELECT view, operator_id, kind, rows, refills FROM deltaview_operators WHERE kind = 'TopK' ORDER BY 1, 2") {
				fmt.Fprintln(&b, r)
			}
			if seed {
				// The fed engine's indexes are cut at its first commit,
				// not at their load, and extend otherwise.
				fmt.Fprintf(&b, "extensions %d\n", engine.ReserveExtensions(e))
			}
			res.snaps = append(res.snaps, when+"\n"+b.String())
		}
		snap("after the build")
		for _, q := range []string{
			"CREATE MATERIALIZED VIEW bad AS SELECT id FROM t WHERE g < 900 AND 10 / (v - 50) > 0 ORDER BY id LIMIT 2",
			"CREATE MATERIALIZED VIEW bad AS SELECT id FROM t WHERE g < 900 ORDER BY 10 / (v - 50), id LIMIT 2",
		} {
			err := sess.ExecScript(q, func(engine.Result) error { return nil })
			if pgerr.Code(err) != "22012" {
				t.Errorf("seed %v fill %v, %s: %v, want division by zero", seed, fill, q, err)
			}
		}
		if got := len(e.Views()); got != len(views) {
			t.Errorf("seed %v fill %v: %d views after the failed builds, want %d", seed, fill, got, len(views))
		}
		rng := rand.New(rand.NewPCG(7, 11))
		top, bottom, next := 1009, 0, n+1
		// NULLs first in the descending views: their reserves drain
		// once these are gone.
		query("DELETE FROM t WHERE v IS NULL")
		snap("after the NULLs' deletion")
		for i := range 16 {
			var tx []string
			switch i % 4 {
			case 0: // drain the descending views' reserves
				top -= 30 + rng.IntN(60)
				tx = append(tx, fmt.Sprintf("DELETE FROM t WHERE v > %d", top))
			case 1: // and the ascending ones'
				bottom += 30 + rng.IntN(60)
				tx = append(tx, fmt.Sprintf("DELETE FROM t WHERE v < %d", bottom))
			case 2:
				m, r := 5+rng.IntN(20), rng.IntN(5)
				tx = append(tx, fmt.Sprintf("UPDATE t SET v = (v * 13 + %d) %% 1009, g = (g + %d) %% 1000 WHERE id %% %d = %d",
					rng.IntN(1009), rng.IntN(1000), m, r))
			case 3:
				k := 50 + rng.IntN(500)
				tx = append(tx, fmt.Sprintf(`INSERT INTO t SELECT i, (i * 11) %% 1000, (i * %d) %% 1009, 'n'
					FROM generate_series(%d, %d) i`, 1+rng.IntN(100), next, next+k-1))
				next += k
			}
			if rng.IntN(2) == 0 {
				tx = append(tx, fmt.Sprintf("DELETE FROM t WHERE id %% %d = %d", 50+rng.IntN(50), rng.IntN(50)))
			}
			query("BEGIN; " + strings.Join(tx, "; ") + "; COMMIT")
			snap(fmt.Sprintf("after transaction %d: %v", i+1, tx))
		}
		return res
	}
	filled, loaded, fed := run(true, true), run(true, false), run(false, false)
	if filled.moved == 0 || loaded.moved != 0 || fed.moved != 0 {
		t.Errorf("rows of t moved after the builds: %d filled, %d loaded, %d fed; want the filled build's table as it was, the others laid out",
			filled.moved, loaded.moved, fed.moved)
	}

	for i := range filled.snaps {
		if filled.snaps[i] != loaded.snaps[i] {
			t.Fatalf("filled:\n%s\nloaded:\n%s", filled.snaps[i], loaded.snaps[i])
		}
		f, g := dropExtensions(filled.snaps[i]), dropExtensions(fed.snaps[i])
		if f != g {
			t.Fatalf("filled:\n%s\nfed:\n%s", f, g)
		}
	}
}

// dropExtensions returns a snapshot without its line of extensions.
func dropExtensions(s string) string {
	if i := strings.Index(s, "extensions "); i >= 0 {
		return s[:i]
	}
	return s
}
