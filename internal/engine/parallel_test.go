package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestParallelFailure: when a view of a wave prepared in parallel fails,
// the error names the first failing view in creation order, every view
// keeps its rows and the transaction is rolled back, as when the views
// prepare one after the other.
func TestParallelFailure(t *testing.T) {
	for _, workers := range []int{1, 2} {
		e := engine.New()
		e.SetWorkers(workers)
		engine.SetParallelMin(e, 0)
		sess := e.NewSession()
		run := func(script string) error {
			return sess.ExecScript(script, func(engine.Result) error { return nil })
		}
		if err := run(`CREATE TABLE t (a int PRIMARY KEY, b int);
			INSERT INTO t VALUES (1, 1), (2, 2);
			CREATE MATERIALIZED VIEW sums AS SELECT sum(b) FROM t;
			CREATE MATERIALIZED VIEW inv1 AS SELECT a, 10 / b AS q FROM t;
			CREATE MATERIALIZED VIEW inv2 AS SELECT a, 20 / b AS q FROM t;
			CREATE MATERIALIZED VIEW big AS SELECT a FROM t WHERE b > 1;`); err != nil {
			t.Fatal(err)
		}
		err := run(`INSERT INTO t VALUES (3, 0)`)
		if pgerr.Code(err) != "22012" || !strings.Contains(pgerr.Wrap(err).Detail, `"inv1"`) {
			t.Fatalf("workers=%d: got %v, want 22012 naming inv1", workers, err)
		}
		for view, want := range map[string]int{"sums": 1, "inv1": 2, "inv2": 2, "big": 1} {
			_, rows, err := e.ViewRows(view)
			if err != nil || len(rows) != want {
				t.Fatalf("workers=%d: %s holds %d rows (%v), want %d", workers, view, len(rows), err, want)
			}
		}
		if err := run(`INSERT INTO t VALUES (3, 3)`); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if _, rows, _ := e.ViewRows("big"); len(rows) != 2 {
			t.Fatalf("workers=%d: big holds %d rows after the next commit, want 2", workers, len(rows))
		}
	}
}

// TestSetWorkers: SET deltaview.workers takes a count of goroutines.
func TestSetWorkers(t *testing.T) {
	sess := engine.New().NewSession()
	run := func(script string) error {
		return sess.ExecScript(script, func(engine.Result) error { return nil })
	}
	if err := run(`SET deltaview.workers = 4; SET deltaview.workers = 0; RESET deltaview.workers`); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`'many'`, `-1`} {
		if err := run(`SET deltaview.workers = ` + bad); pgerr.Code(err) != "22023" {
			t.Fatalf("SET deltaview.workers = %s: got %v, want 22023", bad, err)
		}
	}
}

// TestParallelIndexTakenBack: with two workers, the shared index a top-k
// refills from absorbs a commit's change as soon as the top-k has
// prepared, beside the other views; when another view then fails, the
// index gives the change back, so that a later refill reads only the
// table's rows.
func TestParallelIndexTakenBack(t *testing.T) {
	for _, workers := range []int{1, 2} {
		e := engine.New()
		e.SetWorkers(workers)
		engine.SetParallelMin(e, 0)
		sess := e.NewSession()
		run := func(script string) error {
			return sess.ExecScript(script, func(engine.Result) error { return nil })
		}
		if err := run(`CREATE TABLE t (a int PRIMARY KEY, b int);
			INSERT INTO t SELECT g, g FROM generate_series(1, 100) g;
			CREATE MATERIALIZED VIEW top AS SELECT a, b FROM t ORDER BY b DESC, a LIMIT 3;
			CREATE MATERIALIZED VIEW sums AS SELECT sum(b) FROM t;
			CREATE MATERIALIZED VIEW inv AS SELECT a, 10 / b AS q FROM t;`); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			err := run(`INSERT INTO t VALUES (1000, 1000), (1001, 0)`)
			if pgerr.Code(err) != "22012" || !strings.Contains(pgerr.Wrap(err).Detail, `"inv"`) {
				t.Fatalf("workers=%d: got %v, want 22012 naming inv", workers, err)
			}
		}
		// Past the top-k's reserve: it refills from the index.
		if err := run(`DELETE FROM t WHERE b > 80`); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		_, rows, err := e.ViewRows("top")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.String())
		}
		if want := "(80, 80) (79, 79) (78, 78)"; strings.Join(got, " ") != want {
			t.Fatalf("workers=%d: top holds %s, want %s", workers, strings.Join(got, " "), want)
		}
		// And the index takes the next commit's change.
		if err := run(`INSERT INTO t VALUES (1000, 1000); DELETE FROM t WHERE a = 1000`); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if err := run(`DELETE FROM t WHERE b > 60`); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if _, rows, _ := e.ViewRows("top"); len(rows) != 3 || rows[0][1].String() != "60" {
			t.Fatalf("workers=%d: top holds %v, want 60 first", workers, rows)
		}
	}
}

// TestParallelDeterminism: over random transactions of up to thousands of
// changes (updates by key range, inserts, deletes, changes that cancel),
// an engine whose commits share their work among two or three goroutines
// (the tables' batches consolidated in halves, the views of a wave and the
// shared indexes staged on two workers, longest first, the views and the
// indexes committed on goroutines of their own past the commit's end,
// beside the next transaction's typed changes and its table writes) gives
// every view the deltas, entry for entry and in the same order, that one
// goroutine gives, and the same rows, read between any two commits (the
// views' own commits left behind by the last one); a view created between
// two commits reads the shared index as committed. One view passes the
// table's batch on as it is, which its commit left behind reads while the
// next commit writes the table's next batch. The groupings split their
// steps among the workers by key.
func TestParallelDeterminism(t *testing.T) {
	views := []string{
		`CREATE MATERIALIZED VIEW filtered AS SELECT id, grp, val FROM t WHERE val < 300`,
		`CREATE MATERIALIZED VIEW grouped AS SELECT grp, count(*), sum(val), min(val), max(val) FROM t GROUP BY grp`,
		`CREATE MATERIALIZED VIEW top AS SELECT id, grp, val FROM t WHERE grp < 5 ORDER BY val DESC, id LIMIT 7`,
		`CREATE MATERIALIZED VIEW lows AS SELECT id, val FROM t ORDER BY val, id LIMIT 3`,
		`CREATE MATERIALIZED VIEW joined AS SELECT t.id, u.name FROM t JOIN u ON t.grp = u.grp WHERE t.val > 900`,
		`CREATE MATERIALIZED VIEW over AS SELECT grp, count(*) FROM filtered GROUP BY grp`,
		`CREATE MATERIALIZED VIEW everything AS SELECT * FROM t`,
		// Many groups, keyed by an integer and a text, whose big steps
		// split among the workers by key.
		`CREATE MATERIALIZED VIEW split AS SELECT val % 37 AS k, 'g' || grp AS g, count(*) AS n, sum(val), avg(val::numeric),
			min(id), max(id) FILTER (WHERE val > 500), count(DISTINCT grp) AS grps, bool_and(val > 10) FROM t GROUP BY val % 37, 'g' || grp`,
		`CREATE MATERIALIZED VIEW byval AS SELECT val, count(*), min(id), max(id) FROM t GROUP BY val`,
	}
	names := []string{"filtered", "grouped", "top", "lows", "joined", "over", "everything", "split", "byval"}
	type engineUnderTest struct {
		workers int
		e       *engine.Engine
		sess    *engine.Session
		deltas  map[string][]string
	}
	newEngine := func(workers int) *engineUnderTest {
		e := engine.New()
		e.SetWorkers(workers)
		if workers > 1 {
			engine.SetParallelMin(e, 0)
		}
		x := &engineUnderTest{workers: workers, e: e, sess: e.NewSession(), deltas: map[string][]string{}}
		script := `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
			CREATE TABLE u (grp int PRIMARY KEY, name text);
			INSERT INTO u SELECT g, 'g' || g FROM generate_series(0, 9) g;
			INSERT INTO t SELECT g, g % 10, (g * 7919) % 1000 FROM generate_series(1, 3000) g;
			` + strings.Join(views, ";\n")
		if err := x.sess.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
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
	serial := newEngine(1)
	parallel := []*engineUnderTest{newEngine(2), newEngine(3)}
	all := append([]*engineUnderTest{serial}, parallel...)
	// sameRows fails when an engine's view holds other rows than serial's.
	sameRows := func(when, v string) {
		t.Helper()
		_, a, _ := serial.e.ViewRows(v)
		for _, x := range parallel {
			if _, b, _ := x.e.ViewRows(v); fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("%s: view %s holds other rows on %d workers", when, v, x.workers)
			}
		}
	}
	rng := rand.New(rand.NewPCG(20, 20))
	nextID := 3001
	for txn := range 60 {
		// The views read between two commits, their own commits left
		// behind by the last one on goroutines of their own; but not
		// before some typed transactions, whose table writes then run
		// beside those commits.
		if txn%6 != 2 {
			for _, v := range names {
				sameRows(fmt.Sprintf("before transaction %d", txn), v)
			}
		}
		if txn == 30 {
			for _, x := range all {
				// Shares the index of t by (val, id) with lows.
				if err := x.sess.ExecScript(`CREATE MATERIALIZED VIEW lows2 AS SELECT id, val FROM t ORDER BY val, id LIMIT 40`, func(engine.Result) error { return nil }); err != nil {
					t.Fatal(err)
				}
			}
			if _, a, _ := serial.e.ViewRows("lows2"); len(a) != 40 {
				t.Fatalf("lows2 holds %d rows", len(a))
			}
			sameRows("after lows2's creation", "lows2")
		}
		if txn%3 == 2 {
			// Typed changes, which do not wait for the indexes' commit:
			// replacements by key, kept in the transaction and written at
			// commit on two goroutines, each a range of keys; two such
			// transactions in a row, the second's writes beside the
			// first's commits left behind, which read the table's batch.
			n := 1 + rng.IntN(3000)
			seed := rng.Uint64()
			rounds := 1
			if txn%6 == 2 {
				rounds = 2
			}
			missing := make([]int, len(all))
			for k, x := range all {
				r := rand.New(rand.NewPCG(seed, 1))
				for range rounds {
					if err := x.sess.Begin(); err != nil {
						t.Fatal(err)
					}
					for j := range n {
						if txn%6 == 5 && j == n/2 {
							// A read in the transaction writes the replacements
							// kept so far; the rest are written at commit.
							if err := x.sess.ExecScript(`SELECT count(*) FROM t WHERE val > 500`, func(engine.Result) error { return nil }); err != nil {
								t.Fatal(err)
							}
						}
						id := int64(1 + r.IntN(nextID))
						row := value.Row{value.NewInt(value.Int4, id), value.NewInt(value.Int4, r.Int64N(10)), value.NewInt(value.Int4, r.Int64N(1000))}
						// A deleted key's replacement fails alone.
						if err := x.sess.Replace("t", row); err != nil {
							missing[k]++
						}
					}
					if err := x.sess.Commit(); err != nil {
						t.Fatalf("transaction %d: %v", txn, err)
					}
				}
			}
			if slices.Min(missing) != slices.Max(missing) || missing[0] == rounds*n {
				t.Fatalf("transaction %d: %v of %d replacements failed", txn, missing, n)
			}
			continue
		}
		var b strings.Builder
		b.WriteString("BEGIN;")
		for range 1 + rng.IntN(4) {
			m := 1 + rng.IntN(7)
			switch rng.IntN(6) {
			case 0, 1: // many rows' values by key range
				fmt.Fprintf(&b, "UPDATE t SET val = (val * %d + %d) %% 1000, grp = (grp + %d) %% 10 WHERE id %% %d = %d;",
					1+rng.IntN(5), rng.IntN(1000), rng.IntN(3), m, rng.IntN(m))
			case 2:
				n := rng.IntN(2000)
				fmt.Fprintf(&b, "INSERT INTO t SELECT g, g %% 10, (g * %d) %% 1000 FROM generate_series(%d, %d) g;", 1+rng.IntN(9999), nextID, nextID+n)
				nextID += n + 1
			case 3:
				fmt.Fprintf(&b, "DELETE FROM t WHERE id %% %d = %d AND val %% 3 = %d;", m+1, rng.IntN(m+1), rng.IntN(3))
			case 4: // changes that cancel: there and back
				fmt.Fprintf(&b, "UPDATE t SET val = val + 1 WHERE id %% %d = 0; UPDATE t SET val = val - 1 WHERE id %% %d = 0;", m, m)
			case 5: // the top values leave, draining the top-ks' reserves
				fmt.Fprintf(&b, "DELETE FROM t WHERE val > %d;", 900+rng.IntN(100))
			}
		}
		b.WriteString("COMMIT;")
		for _, x := range all {
			if err := x.sess.ExecScript(b.String(), func(engine.Result) error { return nil }); err != nil {
				t.Fatalf("transaction %d: %v\n%s", txn, err, b.String())
			}
		}
	}
	for _, v := range names {
		for _, x := range parallel {
			if a, b := serial.deltas[v], x.deltas[v]; !slices.Equal(a, b) {
				t.Fatalf("view %s: %d delta lines on one worker, %d on %d, or in another order", v, len(a), len(b), x.workers)
			}
		}
		if len(serial.deltas[v]) == 0 {
			t.Fatalf("view %s never changed", v)
		}
		sameRows("at the end", v)
	}
}

// TestParallelRefillNotice: a commit that leaves its views' commits to a
// goroutine of its own (two workers) raises the same refill notices as
// one that commits them before it returns, for a grouping's MIN/MAX and
// a top-k, and the views' refill counts are the same after.
func TestParallelRefillNotice(t *testing.T) {
	saved := op.DefaultReserve
	op.DefaultReserve = 1
	defer func() { op.DefaultReserve = saved }()
	var got [2][]string
	for k, workers := range []int{1, 2} {
		e := engine.New()
		e.SetWorkers(workers)
		engine.SetParallelMin(e, 0)
		sess := e.NewSession()
		run := func(sql string) {
			if err := sess.ExecScript(sql, func(r engine.Result) error {
				got[k] = append(got[k], r.Notices...)
				for _, row := range r.Rows {
					got[k] = append(got[k], row.String())
				}
				return nil
			}); err != nil {
				t.Fatalf("workers=%d: %v", workers, err)
			}
		}
		run(`SET deltaview.refill_notice = 0;
			CREATE TABLE t (id int PRIMARY KEY, g int, v int);
			INSERT INTO t SELECT i, i % 3, i FROM generate_series(1, 300) i;
			CREATE MATERIALIZED VIEW m AS SELECT g, max(v) FROM t GROUP BY g;
			CREATE MATERIALIZED VIEW top AS SELECT g, id, v FROM t ORDER BY v DESC, id LIMIT 2`)
		run(`DELETE FROM t WHERE id = 300`)
		run(`DELETE FROM t WHERE id IN (297, 298, 299)`)
		run(`DELETE FROM t WHERE id > 250`)
		run(`SELECT name, refills FROM deltaview_views ORDER BY name`)
		run(`SELECT * FROM top`)
	}
	if !slices.Equal(got[0], got[1]) {
		t.Fatalf("one worker:\n%s\ntwo workers:\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
	}
	all := strings.Join(got[0], "\n")
	if !strings.Contains(all, `"m" refilled its reserves 3 times`) || !strings.Contains(all, `"top" refilled its reserves`) {
		t.Fatalf("want refill notices of m (3 at once) and top:\n%s", all)
	}
}

// TestParallelSplitAlone: a grouping that is the only view a commit
// changes prepares on the committing goroutine, its big steps split among
// goroutines of their own; at the default thresholds, over transactions
// of a few rows to thousands, it gives the deltas of one worker, entry
// for entry, and fails as it does (a group key divided by zero).
func TestParallelSplitAlone(t *testing.T) {
	type engineUnderTest struct {
		sess   *engine.Session
		e      *engine.Engine
		deltas []string
	}
	newEngine := func(workers int) *engineUnderTest {
		e := engine.New()
		e.SetWorkers(workers)
		x := &engineUnderTest{e: e, sess: e.NewSession()}
		if err := x.sess.ExecScript(`CREATE TABLE w (id int PRIMARY KEY, k int NOT NULL, v int NOT NULL);
			INSERT INTO w SELECT g, g % 500, g % 97 FROM generate_series(1, 20000) g;
			CREATE MATERIALIZED VIEW g AS SELECT k / (v % 97 + 1) AS q, count(*), sum(v), min(id), max(id) FROM w GROUP BY k / (v % 97 + 1)`,
			func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Subscribe("g", func(ts uint64, d zset.ZSet) {
			for _, en := range d {
				x.deltas = append(x.deltas, fmt.Sprintf("%d %s %d", ts, en.Row, en.W))
			}
		}); err != nil {
			t.Fatal(err)
		}
		return x
	}
	one, two := newEngine(1), newEngine(2)
	rng := rand.New(rand.NewPCG(7, 7))
	failed := 0
	for txn := range 30 {
		m := 1 + rng.IntN(40)
		stmt := fmt.Sprintf("UPDATE w SET k = (k * %d + %d) %% 500, v = (v + %d) %% 97 WHERE id %% %d = %d",
			1+rng.IntN(5), rng.IntN(500), rng.IntN(97), m, rng.IntN(m))
		if txn%7 == 6 {
			// A divisor of zero in some rows: the step fails.
			stmt = fmt.Sprintf("UPDATE w SET v = -1 WHERE id %% %d = 0", 1+rng.IntN(10))
		}
		var errs [2]error
		for i, x := range []*engineUnderTest{one, two} {
			errs[i] = x.sess.ExecScript(stmt, func(engine.Result) error { return nil })
		}
		if fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) {
			t.Fatalf("transaction %d: one worker: %v; two: %v", txn, errs[0], errs[1])
		}
		if errs[0] != nil {
			failed++
		}
	}
	if !slices.Equal(one.deltas, two.deltas) || len(one.deltas) == 0 {
		t.Fatalf("%d delta lines on one worker, %d on two, or in another order", len(one.deltas), len(two.deltas))
	}
	_, a, _ := one.e.ViewRows("g")
	_, b, _ := two.e.ViewRows("g")
	if fmt.Sprint(a) != fmt.Sprint(b) || failed == 0 {
		t.Fatalf("the views' rows differ, or no transaction failed (%d)", failed)
	}
}
