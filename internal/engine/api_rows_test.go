package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestReplaceRows checks Session.ReplaceRows against the same rows
// replaced one Replace at a time, which the calls that succeed stand for:
// over random transactions of calls of 1 to 300 rows into a table that
// keeps its replacements (t) and one that writes them at once (u, whose
// second unique column rules that out), calls with a missing key or a row
// failing CHECK somewhere in the batch (the call fails with the row's
// SQLSTATE and leaves nothing of its own, the transaction's earlier calls
// stay), rows reused by the caller between calls, commits and rollbacks,
// the views' deltas, rows and the tables' rows agree after every
// transaction, on one worker and on two.
func TestReplaceRows(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { testReplaceRows(t, workers) })
	}
}

func testReplaceRows(t *testing.T, workers int) {
	views := []string{
		`SELECT id, grp, val FROM t WHERE val < 300`,
		`SELECT grp, count(*), sum(val), max(val) FROM t GROUP BY grp`,
		`SELECT t.id, t.val, u.v FROM t JOIN u ON t.grp = u.id`,
		`SELECT id, val FROM t ORDER BY val DESC, id LIMIT 5`,
	}
	type side struct {
		s      *engine.Session
		deltas []string
	}
	open := func() *side {
		e := engine.New()
		e.SetWorkers(workers)
		if workers > 1 {
			engine.SetParallelMin(e, 0)
		}
		x := &side{s: e.NewSession()}
		script := `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL CHECK (val >= 0));
			CREATE TABLE u (id int PRIMARY KEY, v int UNIQUE);
			INSERT INTO t SELECT g, g % 10, (g * 7919) % 1000 FROM generate_series(1, 2000) g;
			INSERT INTO u SELECT g, g FROM generate_series(0, 9) g;`
		for i, q := range views {
			script += fmt.Sprintf("CREATE MATERIALIZED VIEW v%d AS %s;\n", i, q)
		}
		if err := x.s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
		for i := range views {
			if _, err := e.Subscribe(fmt.Sprintf("v%d", i), func(ts uint64, d zset.ZSet) {
				for _, en := range d {
					x.deltas = append(x.deltas, fmt.Sprintf("v%d %d %s %d", i, ts, en.Row, en.W))
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		return x
	}
	query := func(s *engine.Session, q string) string { return sortedResult(t, s, q) }
	batched, single := open(), open()
	i4 := func(v int64) value.Value { return value.NewInt(value.Int4, v) }
	rng := rand.New(rand.NewPCG(3, 11))
	// The caller's rows, reused from one call to the next.
	buf := make([][]value.Value, 300)
	for i := range buf {
		buf[i] = make([]value.Value, 3)
	}
	uv := int64(100) // u.v values not used yet
	for txn := range 60 {
		for _, x := range []*side{batched, single} {
			if err := x.s.Begin(); err != nil {
				t.Fatal(err)
			}
		}
		for range 1 + rng.IntN(6) {
			table, n := "t", 1+rng.IntN(40)
			if rng.IntN(3) == 0 {
				n = 65 + rng.IntN(236)
			}
			if rng.IntN(5) == 0 {
				table, n = "u", 1+rng.IntN(8)
			}
			rows := buf[:n]
			want := ""
			for _, r := range rows {
				switch table {
				case "t":
					r[0], r[1], r[2] = i4(1+rng.Int64N(2000)), i4(rng.Int64N(10)), i4(rng.Int64N(1000))
				case "u":
					uv++
					r[0], r[1], r[2] = i4(rng.Int64N(10)), i4(uv), value.Null
				}
			}
			if table == "u" {
				for i := range rows {
					rows[i] = rows[i][:2]
				}
			}
			if rng.IntN(4) == 0 {
				bad := rows[rng.IntN(n)]
				switch {
				case table == "u" || rng.IntN(2) == 0:
					bad[0], want = i4(5000), "02000"
				default:
					bad[2], want = i4(-1), pgerr.CheckViolation
				}
			}
			err := batched.s.ReplaceRows(table, rows)
			if (err == nil) != (want == "") || err != nil && pgerr.Code(err) != want {
				t.Fatalf("transaction %d: %d rows into %s: %v, want SQLSTATE %q", txn, n, table, err, want)
			}
			if err == nil {
				for _, r := range rows {
					if err := single.s.Replace(table, slices.Clone(value.Row(r))); err != nil {
						t.Fatal(err)
					}
				}
			}
			for i := range rows {
				rows[i] = rows[i][:3]
			}
		}
		for _, x := range []*side{batched, single} {
			if txn%7 == 6 {
				x.s.Rollback()
			} else if err := x.s.Commit(); err != nil {
				t.Fatalf("transaction %d: %v", txn, err)
			}
		}
		for _, q := range []string{`SELECT * FROM t`, `SELECT * FROM u`} {
			if a, b := query(batched.s, q), query(single.s, q); a != b {
				t.Fatalf("transaction %d: %s differs", txn, q)
			}
		}
	}
	if len(batched.deltas) == 0 || !slices.Equal(batched.deltas, single.deltas) {
		t.Fatalf("%d delta lines in batches, %d row by row, or others\n%s", len(batched.deltas), len(single.deltas), firstDiff(batched.deltas, single.deltas))
	}
	for i, q := range views {
		v := fmt.Sprintf("v%d", i)
		if got, want := query(batched.s, "SELECT * FROM "+v), query(batched.s, q); got != want {
			t.Fatalf("view %s holds %s, its query gives %s", v, got, want)
		}
	}
}
