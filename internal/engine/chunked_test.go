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
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestChunkedCommit checks the commit of a big transaction of kept
// replacements in chunks of keys (chunked.go) against the same
// transactions committed whole: over random transactions of replacements
// (keys replaced several times, rows replaced by themselves, big
// transactions that change nothing and leave the logical time, values that
// drain the top-k's reserve, a row on which one view's expression fails
// anywhere in the batch, so that the chunks before it are taken back),
// each subscriber's delta of each commit, the error's SQLSTATE, every
// view's rows and count of steps, and the tables' rows agree after every
// transaction, and each view equals its query run afresh, on chunks of 1,
// 7 and 64 keys. Two workers, and a grouping anywhere, make every commit
// whole, which the last two engines check. The top-k's index keeps few rows
// in order, so that its extensions (a read of the table as the index has
// it, without the chunk under way) come often.
func TestChunkedCommit(t *testing.T) {
	// The top-k's index keeps a few rows in order: extensions, which read
	// the table as the index has it, come often.
	old := dataflow.SetBoundMin(8)
	defer dataflow.SetBoundMin(old)
	for _, chunk := range []int{1, 7, 64} {
		t.Run(fmt.Sprintf("chunk=%d", chunk), func(t *testing.T) {
			testChunkedCommit(t, 1, chunk, false)
		})
	}
	t.Run("workers=2", func(t *testing.T) { testChunkedCommit(t, 2, 7, false) })
	t.Run("grouping", func(t *testing.T) { testChunkedCommit(t, 1, 7, true) })
}

func testChunkedCommit(t *testing.T, workers, chunk int, grouping bool) {
	views := map[string]string{
		"filtered": `SELECT id, grp, val FROM t WHERE val < 300`,
		"top":      `SELECT id, val FROM t WHERE grp < 5 ORDER BY val DESC, id LIMIT 4`,
		"joined":   `SELECT t.id, t.val, u.name FROM t JOIN u ON t.k = u.id WHERE t.val > 500`,
		"proj":     `SELECT grp, val % 7 AS m FROM t WHERE val > 100`,
		"failing":  `SELECT id, 1000 / (val - 777) AS q FROM t WHERE grp <> 3`,
	}
	// Created after proj, which it reads.
	after := map[string]string{"onview": `SELECT grp FROM proj WHERE m = 3`}
	if grouping {
		after["grouped"] = `SELECT grp, count(*), sum(val) FROM t GROUP BY grp`
	}
	sorted := func(m map[string]string) []string {
		var out []string
		for n := range m {
			out = append(out, n)
		}
		slices.Sort(out)
		return out
	}
	names := append(sorted(views), sorted(after)...)
	type side struct {
		e      *engine.Engine
		s      *engine.Session
		deltas map[string][]string
	}
	const n = 600
	open := func(chunk int) *side {
		e := engine.New()
		e.SetWorkers(workers)
		if workers > 1 {
			engine.SetParallelMin(e, 0)
		}
		engine.SetChunkRows(e, chunk)
		x := &side{e: e, s: e.NewSession(), deltas: map[string][]string{}}
		script := fmt.Sprintf(`CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL, k int);
			CREATE TABLE u (id int PRIMARY KEY, name text);
			INSERT INTO u SELECT g, 'name-' || g FROM generate_series(1, 50) g;
			INSERT INTO t SELECT g, g %% 10, (g * 7919) %% 1000, 1 + g %% 60 FROM generate_series(1, %d) g WHERE (g * 7919) %% 1000 <> 777;`, n)
		for _, v := range sorted(views) {
			script += fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS %s;\n", v, views[v])
		}
		for _, v := range sorted(after) {
			script += fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS %s;\n", v, after[v])
		}
		if err := x.s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
		for _, v := range names {
			if _, err := e.Subscribe(v, func(ts uint64, d zset.ZSet) {
				for _, en := range d {
					x.deltas[v] = append(x.deltas[v], fmt.Sprintf("%d %s %d", ts, en.Row, en.W))
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		return x
	}
	chunked, whole := open(chunk), open(0)
	rows := map[int64][3]int64{} // id → grp, val, k
	for g := int64(1); g <= n; g++ {
		if (g*7919)%1000 != 777 {
			rows[g] = [3]int64{g % 10, (g * 7919) % 1000, 1 + g%60}
		}
	}
	ids := slices.Sorted(func(yield func(int64) bool) {
		for id := range rows {
			if !yield(id) {
				return
			}
		}
	})
	i4 := func(v int64) value.Value { return value.NewInt(value.Int4, v) }
	rng := rand.New(rand.NewPCG(uint64(chunk), uint64(workers)))
	failures := 0
	for txn := range 80 {
		size := 1 + rng.IntN(12)
		if txn%3 != 0 {
			size = 20 + rng.IntN(400)
		}
		fail := rng.IntN(6) == 0
		// Now and then a big transaction that changes nothing: the
		// logical time stays.
		noop := txn%10 == 5
		if noop {
			fail = false
		}
		var batch []value.Row
		next := map[int64][3]int64{}
		for range size {
			id := ids[rng.IntN(len(ids))]
			r := rows[id]
			if nr, ok := next[id]; ok {
				r = nr
			}
			switch op := rng.IntN(10); {
			case op == 0 || noop: // the row it has
			case op < 4: // down, draining the top-k's reserve
				r[1] = rng.Int64N(100)
			default:
				r[0], r[1] = rng.Int64N(10), rng.Int64N(1000)
			}
			if r[1] == 777 {
				r[1] = 776
			}
			next[id] = r
			batch = append(batch, value.Row{i4(id), i4(r[0]), i4(r[1]), i4(r[2])})
		}
		if fail {
			// Last, anywhere in key order: the chunks before its own
			// are taken back.
			id := ids[rng.IntN(len(ids))]
			batch = append(batch, value.Row{i4(id), i4(1), i4(777), i4(rows[id][2])})
		}
		var errs [2]error
		for j, x := range []*side{chunked, whole} {
			if err := x.s.Begin(); err != nil {
				t.Fatal(err)
			}
			for _, row := range batch {
				if err := x.s.Replace("t", row); err != nil {
					t.Fatalf("transaction %d: %v", txn, err)
				}
			}
			errs[j] = x.s.Commit()
		}
		if pgerr.Code(errs[0]) != pgerr.Code(errs[1]) {
			t.Fatalf("transaction %d (%d rows): chunked commit: %v, whole: %v", txn, size, errs[0], errs[1])
		}
		if fail {
			if pgerr.Code(errs[0]) != pgerr.DivisionByZero {
				t.Fatalf("transaction %d: want 22012, got %v", txn, errs[0])
			}
			failures++
		} else {
			if errs[0] != nil {
				t.Fatalf("transaction %d: %v", txn, errs[0])
			}
			for id, r := range next {
				rows[id] = r
			}
		}
		for _, v := range append(slices.Clone(names), "t") {
			got, want := strings.Join(chunked.deltas[v], "\n"), strings.Join(whole.deltas[v], "\n")
			if got != want {
				t.Fatalf("transaction %d (%d rows): %s's deltas differ:\nchunked:\n%s\nwhole:\n%s", txn, size, v, got, want)
			}
			q := "SELECT * FROM " + v
			got, want = sortedResult(t, chunked.s, q), sortedResult(t, whole.s, q)
			if got != want {
				t.Fatalf("transaction %d: %s differs:\nchunked: %s\nwhole:   %s", txn, v, got, want)
			}
			if v == "t" {
				continue
			}
			def := views[v]
			if def == "" {
				def = after[v]
			}
			if fresh := sortedResult(t, chunked.s, def); fresh != got {
				t.Fatalf("transaction %d: %s is\n%s\nits query gives\n%s", txn, v, got, fresh)
			}
		}
		// A view steps once a commit, in chunks or not.
		const steps = "SELECT name, steps, rows FROM deltaview_views"
		if got, want := sortedResult(t, chunked.s, steps), sortedResult(t, whole.s, steps); got != want {
			t.Fatalf("transaction %d: views' steps\nchunked: %s\nwhole:   %s", txn, got, want)
		}
		var model []string
		for _, id := range ids {
			r := rows[id]
			model = append(model, fmt.Sprint(value.Row{i4(id), i4(r[0]), i4(r[1]), i4(r[2])}))
		}
		slices.Sort(model)
		if got := sortedResult(t, chunked.s, "SELECT * FROM t"); got != strings.Join(model, " ") {
			t.Fatalf("transaction %d: t is not its model", txn)
		}
	}
	if failures == 0 {
		t.Fatal("no transaction failed")
	}
}
