package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/engine"
)

// TestBoundedReserveIndex checks top-ks over a table whose shared index
// keeps only its first rows in order, cut to a few rows so that refills
// keep reading past them: after every transaction (deletions of the top
// rows, updates moving rows across the frontier, inserts, several changes
// a transaction, a rolled-back one) each view has the rows that the same
// query gives from scratch, on one worker and on two.
func TestBoundedReserveIndex(t *testing.T) {
	old := dataflow.SetBoundMin(4)
	defer dataflow.SetBoundMin(old)
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			e := engine.New()
			e.SetWorkers(workers)
			if workers > 1 {
				engine.SetParallelMin(e, 0)
			}
			sess := e.NewSession()
			exec := func(sql string) [][]string {
				t.Helper()
				var rows [][]string
				if err := sess.ExecScript(sql, func(r engine.Result) error {
					for _, row := range r.Rows {
						var s []string
						for _, v := range row {
							s = append(s, v.String())
						}
						rows = append(rows, s)
					}
					return nil
				}); err != nil {
					t.Fatalf("%s: %v", sql, err)
				}
				return rows
			}
			views := map[string]string{
				"top":   "SELECT id, g, v FROM t WHERE g < 3 ORDER BY v DESC, id LIMIT 3",
				"top2":  "SELECT id, g, v FROM t WHERE g < 3 ORDER BY v DESC, id LIMIT 5 OFFSET 2",
				"low":   "SELECT id, v FROM t ORDER BY v, id LIMIT 2",
				"other": "SELECT id, v FROM t WHERE g = 4 ORDER BY v, id LIMIT 2",
			}
			exec(`CREATE TABLE t (id int PRIMARY KEY, g int NOT NULL, v int NOT NULL);
				INSERT INTO t SELECT i, i % 6, (i * 37) % 101 FROM generate_series(1, 300) i`)
			for name, q := range views {
				exec(fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS %s", name, q))
			}
			check := func(step int) {
				t.Helper()
				for name, q := range views {
					got := exec("SELECT * FROM " + name + " ORDER BY 1")
					want := exec("SELECT * FROM (" + q + ") s ORDER BY 1")
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("step %d, view %s: got %v, want %v", step, name, got, want)
					}
				}
			}
			check(0)
			r := rand.New(rand.NewPCG(1, 2))
			next := 301
			for step := 1; step <= 150; step++ {
				var stmts []string
				for range 1 + r.IntN(4) {
					switch r.IntN(5) {
					case 0: // the top rows go
						stmts = append(stmts, "DELETE FROM t WHERE id IN (SELECT id FROM t ORDER BY v DESC, id LIMIT 3)")
					case 1: // the bottom rows go
						stmts = append(stmts, "DELETE FROM t WHERE id IN (SELECT id FROM t ORDER BY v, id LIMIT 2)")
					case 2:
						stmts = append(stmts, fmt.Sprintf("UPDATE t SET v = %d, g = %d WHERE id %% 17 = %d", r.IntN(120), r.IntN(6), r.IntN(17)))
					case 3:
						stmts = append(stmts, fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d), (%d, %d, %d)",
							next, r.IntN(6), r.IntN(110), next+1, r.IntN(6), r.IntN(110)))
						next += 2
					default:
						stmts = append(stmts, fmt.Sprintf("UPDATE t SET v = v - %d WHERE v > %d", 1+r.IntN(30), 60+r.IntN(50)))
					}
				}
				script := "BEGIN; " + strings.Join(stmts, "; ") + "; COMMIT"
				if step%25 == 0 {
					script = "BEGIN; " + strings.Join(stmts, "; ") + "; ROLLBACK"
				}
				exec(script)
				check(step)
			}
			if n := engine.ReserveExtensions(e); n == 0 {
				t.Errorf("no index was extended")
			} else {
				t.Logf("%d extensions", n)
			}
		})
	}
}

// TestMinMaxReserveIndexWhole checks that a MIN or MAX over a table keeps
// its own whole index, never one that keeps only its first rows: a MAX
// reads its index from the end, which in a bounded index would rebuild it
// from the table at every refill. Here a top-k reads the same ordering as
// the MIN and MAX, and the maximum row is deleted again and again.
func TestMinMaxReserveIndexWhole(t *testing.T) {
	old := dataflow.SetBoundMin(4)
	defer dataflow.SetBoundMin(old)
	e := engine.New()
	sess := e.NewSession()
	exec := func(sql string) string {
		t.Helper()
		var out []string
		if err := sess.ExecScript(sql, func(r engine.Result) error {
			for _, row := range r.Rows {
				for _, v := range row {
					out = append(out, v.String())
				}
			}
			return nil
		}); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return strings.Join(out, ",")
	}
	exec(`CREATE TABLE t (id int PRIMARY KEY, s text NOT NULL);
		INSERT INTO t SELECT i, lpad(((i * 37) % 1009)::text, 4, '0') FROM generate_series(1, 300) i;
		CREATE MATERIALIZED VIEW lo AS SELECT id, s FROM t ORDER BY s, id LIMIT 2;
		CREATE MATERIALIZED VIEW m AS SELECT min(s), max(s) FROM t`)
	// The top-k's cold start reads its index one tie past its 18 rows,
	// the region here: that may extend it once (op.TopK.SeedRows).
	built := engine.ReserveExtensions(e)
	for i := range 60 {
		exec("DELETE FROM t WHERE s = (SELECT max(s) FROM t)")
		if got, want := exec("SELECT * FROM m"), exec("SELECT min(s), max(s) FROM t"); got != want {
			t.Fatalf("deletion %d: view m %s, query %s", i, got, want)
		}
		if got, want := exec("SELECT * FROM lo"), exec("SELECT id, s FROM t ORDER BY s, id LIMIT 2"); got != want {
			t.Fatalf("deletion %d: view lo %s, query %s", i, got, want)
		}
	}
	if n := engine.ReserveExtensions(e) - built; n != 0 {
		t.Errorf("%d extensions of a bounded index", n)
	}
}
