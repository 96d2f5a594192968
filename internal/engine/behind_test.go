package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// The tests of this file check that every path that reads the views (or
// the indexes their commits update) waits for the commits that a commit
// with two workers leaves behind (behind.go). Each runs one stream of
// transactions on an engine with one worker and on one with two; on the
// second, the goroutine of every commit left behind is held (SetBehindHook)
// while another goroutine reads through the path, then let go: a read
// that does not wait reads the state before the commit, which differs
// from what the first engine read after the same transaction, and under
// -race the read and the commit are reported besides.

const behindSchema = `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
	CREATE TABLE u (grp int PRIMARY KEY, name text);
	INSERT INTO u SELECT g, 'g' || g FROM generate_series(0, 9) g;
	INSERT INTO t SELECT g, g % 10, (g * 7919) % 1000 FROM generate_series(1, 1000) g;
	CREATE MATERIALIZED VIEW filtered AS SELECT id, grp, val FROM t WHERE val < 300;
	CREATE MATERIALIZED VIEW grouped AS SELECT grp, count(*) AS n, sum(val) AS s, min(val) AS lo, max(val) AS hi FROM t GROUP BY grp;
	CREATE MATERIALIZED VIEW top AS SELECT id, grp, val FROM t WHERE grp < 5 ORDER BY val DESC, id LIMIT 7;
	CREATE MATERIALIZED VIEW lows AS SELECT id, val FROM t ORDER BY val, id LIMIT 3;
	CREATE MATERIALIZED VIEW joined AS SELECT t.id, u.name FROM t JOIN u ON t.grp = u.grp WHERE t.val > 900;
	CREATE MATERIALIZED VIEW joined2 AS SELECT t.id, t.val, u.name FROM t JOIN u ON t.grp = u.grp WHERE t.val < 30;
	CREATE MATERIALIZED VIEW over AS SELECT grp, count(*) AS n FROM filtered GROUP BY grp`

// behindViews are the views of behindSchema.
var behindViews = []string{"filtered", "grouped", "top", "lows", "joined", "joined2", "over"}

// behindStream returns n transactions over behindSchema, each changing
// the views: values by key range, inserts, deletes (which drain the
// top-ks' reserves), and renames of u (whose index by grp joined and
// joined2 share).
func behindStream(n int) []string {
	rng := rand.New(rand.NewPCG(7, 11))
	nextID := 1001
	var out []string
	for range n {
		var b strings.Builder
		b.WriteString("BEGIN;")
		for range 1 + rng.IntN(3) {
			m := 2 + rng.IntN(6)
			switch rng.IntN(6) {
			case 0, 1:
				fmt.Fprintf(&b, "UPDATE t SET val = (val * %d + %d) %% 1000, grp = (grp + %d) %% 10 WHERE id %% %d = %d;",
					1+rng.IntN(5), rng.IntN(1000), rng.IntN(3), m*3, rng.IntN(m*3))
			case 2:
				k := 10 + rng.IntN(100)
				fmt.Fprintf(&b, "INSERT INTO t SELECT g, g %% 10, (g * %d) %% 1000 FROM generate_series(%d, %d) g;", 1+rng.IntN(9999), nextID, nextID+k)
				nextID += k + 1
			case 3:
				fmt.Fprintf(&b, "DELETE FROM t WHERE id %% %d = %d AND val %% 5 = %d;", m*4, rng.IntN(m*4), rng.IntN(5))
			case 4:
				fmt.Fprintf(&b, "DELETE FROM t WHERE val > %d AND id %% 3 = %d;", 950+rng.IntN(50), rng.IntN(3))
			case 5:
				fmt.Fprintf(&b, "UPDATE u SET name = name || '%c' WHERE grp %% %d = %d;", 'a'+rng.IntN(26), m, rng.IntN(m))
			}
		}
		// Every transaction moves rows in and out of filtered, so that
		// every view but the top-ks changes.
		fmt.Fprintf(&b, "UPDATE t SET val = (val + 150) %% 1000 WHERE id %% 50 = %d;", rng.IntN(50))
		b.WriteString("COMMIT;")
		out = append(out, b.String())
	}
	return out
}

// behindEngine is one engine of a test: its writer session, the session
// its reads run in, and what a path keeps from one read to the next.
type behindEngine struct {
	e      *engine.Engine
	writer *engine.Session
	reader *engine.Session
	kept   map[string]any
}

func newBehindEngine(t *testing.T, workers int) *behindEngine {
	t.Helper()
	e := engine.New()
	e.SetWorkers(workers)
	if workers > 1 {
		engine.SetParallelMin(e, 0)
	}
	x := &behindEngine{e: e, writer: e.NewSession(), reader: e.NewSession(), kept: map[string]any{}}
	if err := x.writer.ExecScript(behindSchema, func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	return x
}

// run runs a script in s and returns its result sets, one line per row.
func behindRun(s *engine.Session, script string) (string, error) {
	var b strings.Builder
	err := s.ExecScript(script, func(r engine.Result) error {
		for _, n := range r.Notices {
			fmt.Fprintf(&b, "NOTICE %s\n", n)
		}
		if r.HasRows {
			fmt.Fprintf(&b, "%s\n", r.Tag)
		}
		for _, row := range r.Rows {
			fmt.Fprintf(&b, "%s\n", row)
		}
		return nil
	})
	return b.String(), err
}

// behindGate holds the goroutines of the commits left behind by the
// stream's transactions until it opens, and counts them. The commits of
// a path's own changes, once it is open, are not held.
type behindGate struct {
	mu   sync.Mutex
	ch   chan struct{}
	held int
}

// hook is called by a commit left behind: its goroutine waits for the
// gate as it is now to open.
func (g *behindGate) hook() func() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ch == nil {
		return nil
	}
	g.held++
	ch := g.ch
	return func() { <-ch }
}

// shut makes the gate hold the commits from now on.
func (g *behindGate) shut() {
	g.mu.Lock()
	g.ch = make(chan struct{})
	g.mu.Unlock()
}

// open lets the goroutines held go, and the next ones pass.
func (g *behindGate) open() {
	g.mu.Lock()
	close(g.ch)
	g.ch = nil
	g.mu.Unlock()
}

// behindPath is one path that reads the views, or the state their
// commits change: read returns what it read, the same on every engine
// that holds the same data. It may change the engine too (a typed
// change, a view created and dropped), as long as it changes every engine
// the same way.
type behindPath struct {
	name string
	// parts are the path's reads, each under one lock: read runs them
	// one after the other.
	parts []behindRead
	// changes says read changes the engine: it is left out of the test
	// of concurrent readers (TestBehindConcurrentReads).
	changes bool
	// bytes says what it reads counts the bytes of the indexes that
	// reads build and let go (of a view's rows by a column, of a table by
	// a prefix of its key): concurrent readers then read figures that
	// depend on when the others read.
	bytes bool
}

type behindRead func(x *behindEngine) (string, error)

func (p behindPath) read(x *behindEngine) (string, error) {
	var b strings.Builder
	for _, r := range p.parts {
		s, err := r(x)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// behindTxns is the length of each test's stream.
const behindTxns = 16

// runBehindPath runs the stream on one worker and on two, reading through
// p after every transaction: on two workers while the commit left behind
// is held. What it reads must be the same.
func runBehindPath(t *testing.T, p behindPath) {
	serial, par := newBehindEngine(t, 1), newBehindEngine(t, 2)
	txns := behindStream(behindTxns)
	want := make([]string, len(txns))
	for k, txn := range txns {
		if _, err := behindRun(serial.writer, txn); err != nil {
			t.Fatalf("transaction %d: %v", k, err)
		}
		got, err := p.read(serial)
		if err != nil {
			t.Fatalf("one worker, after transaction %d: %v", k, err)
		}
		want[k] = got
	}
	g := &behindGate{}
	defer engine.SetBehindHook(g.hook)()
	for k, txn := range txns {
		g.shut()
		if _, err := behindRun(par.writer, txn); err != nil {
			t.Fatalf("transaction %d: %v", k, err)
		}
		type result struct {
			s   string
			err error
		}
		done := make(chan result, 1)
		go func() {
			s, err := p.read(par)
			done <- result{s, err}
		}()
		// A read that does not wait reads meanwhile, before the views'
		// commit.
		select {
		case r := <-done:
			g.open()
			done <- r
		case <-time.After(2 * time.Millisecond):
			g.open()
		}
		r := <-done
		if r.err != nil {
			t.Fatalf("two workers, after transaction %d: %v", k, r.err)
		}
		if r.s != want[k] {
			t.Fatalf("after transaction %d, %s read on two workers:\n%s\non one:\n%s", k, p.name, r.s, want[k])
		}
	}
	g.mu.Lock()
	held := g.held
	g.mu.Unlock()
	if held < len(txns)/2 {
		t.Fatalf("%d of %d commits were left behind", held, len(txns))
	}
}

// behindPaths are the paths through which the views' state is read.
func behindPaths() []behindPath {
	views := func(f func(x *behindEngine, v string) (string, error)) []behindRead {
		var parts []behindRead
		for _, v := range behindViews {
			parts = append(parts, func(x *behindEngine) (string, error) {
				s, err := f(x, v)
				if err != nil {
					return "", fmt.Errorf("%s: %w", v, err)
				}
				return v + ":\n" + s, nil
			})
		}
		return parts
	}
	// script's parts are its statements.
	script := func(sql string) []behindRead {
		var parts []behindRead
		for _, st := range strings.Split(sql, ";") {
			parts = append(parts, func(x *behindEngine) (string, error) { return behindRun(x.reader, st) })
		}
		return parts
	}
	one := func(r behindRead) []behindRead { return []behindRead{r} }
	return []behindPath{
		{name: "SELECT of a view", parts: views(func(x *behindEngine, v string) (string, error) {
			return behindRun(x.reader, "SELECT * FROM "+v+" ORDER BY 1, 2")
		})},
		// A WHERE that fixes a column reads through an index of the
		// view's rows (viewindex.go), which the view's commit updates.
		{name: "SELECT of a view by a column's value", parts: script(`SELECT * FROM filtered WHERE grp = 3 ORDER BY id;
			SELECT * FROM joined WHERE name LIKE 'g4%' ORDER BY id;
			SELECT * FROM joined2 WHERE val = 7 ORDER BY id;
			SELECT n FROM over WHERE grp = 7`)},
		{name: "ad-hoc query over views and tables", parts: script(`SELECT o.grp, o.n, g.n, g.lo, g.hi, u.name
			FROM over o JOIN grouped g ON o.grp = g.grp JOIN u ON u.grp = o.grp ORDER BY 1;
			SELECT count(*), sum(t.val) FROM t WHERE id IN (SELECT id FROM filtered);
			SELECT (SELECT max(val) FROM top), (SELECT count(*) FROM joined)`)},
		{name: "prepared SELECT of a view", parts: one(func(x *behindEngine) (string, error) {
			st, err := sql.Parse("SELECT * FROM filtered WHERE grp = $1 ORDER BY id")
			if err != nil {
				return "", err
			}
			p, err := x.reader.Prepare(st)
			if err != nil {
				return "", err
			}
			res, err := x.reader.ExecPrepared(p, []value.Value{value.NewInt(value.Int4, 2)})
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s %v\n", res[0].Tag, res[0].Rows), nil
		})},
		{name: "ViewRows", parts: views(func(x *behindEngine, v string) (string, error) {
			_, rows, err := x.e.ViewRows(v)
			return fmt.Sprint(rows), err
		})},
		{name: "Recompute of a view over a view", parts: one(func(x *behindEngine) (string, error) {
			rows, err := x.e.Recompute("over")
			slices.SortFunc(rows, value.CompareRows)
			return fmt.Sprint(rows), err
		})},
		{name: "catalogs", bytes: true, parts: script(`SELECT name, rows, state_bytes, steps, refills, over_budget FROM deltaview_views ORDER BY name;
			SELECT view, operator_id, kind, state_bytes, rows, input_changes, output_changes, refills FROM deltaview_operators ORDER BY 1, 2;
			SELECT * FROM deltaview_tables ORDER BY name`)},
		{name: "Memory", bytes: true, parts: one(func(x *behindEngine) (string, error) {
			m := x.e.Memory()
			var b strings.Builder
			for _, v := range behindViews {
				fmt.Fprintf(&b, "%s %+v\n", v, m.Views[v])
			}
			fmt.Fprintf(&b, "tables %v total %+v\n", m.Tables, m.Total)
			return b.String(), nil
		})},
		{name: "ExplainView", parts: views(func(x *behindEngine, v string) (string, error) {
			res, err := x.e.ExplainView(v)
			if err != nil {
				return "", err
			}
			var b strings.Builder
			for _, r := range res.Rows {
				b.WriteString(r[0].Str() + "\n")
			}
			return b.String(), nil
		})},
		{name: "EXPLAIN MATERIALIZED VIEW", parts: views(func(x *behindEngine, v string) (string, error) {
			return behindRun(x.reader, "EXPLAIN MATERIALIZED VIEW "+v)
		})},
		{name: "Watch with a snapshot", parts: views(func(x *behindEngine, v string) (string, error) {
			snap, stop, err := x.e.Watch(v, true, func(uint64, zset.ZSet) bool { return true }, nil)
			if err != nil {
				return "", err
			}
			stop()
			return fmt.Sprintf("%d %v", snap.TS, snap.Rows), nil
		})},
		{name: "SUBSCRIBE", parts: one(func(x *behindEngine) (string, error) {
			if x.kept["subscribed"] == nil {
				x.kept["subscribed"] = true
				if _, err := behindRun(x.reader, "SUBSCRIBE filtered; SUBSCRIBE top; SUBSCRIBE over"); err != nil {
					return "", err
				}
			}
			return behindRun(x.reader, "SELECT count(*) FROM over")
		})},
		{name: "sink", changes: true, parts: one(func(x *behindEngine) (string, error) {
			// A sink attached at the start receives every delta; one
			// attached now loads the view's rows.
			if x.kept["sink"] == nil {
				s := &behindSink{}
				if _, err := x.e.AttachSink("joined2", s); err != nil {
					return "", err
				}
				x.kept["sink"] = s
			}
			s := &behindSink{}
			detach, err := x.e.AttachSink("filtered", s)
			if err != nil {
				return "", err
			}
			detach()
			return s.String() + x.kept["sink"].(*behindSink).String(), nil
		})},
		// A view created over a view, and over tables whose indexes
		// views share (u by grp; t by val, id), builds from their state.
		{name: "CREATE and DROP of views", changes: true, parts: script(`CREATE MATERIALIZED VIEW tmp AS SELECT grp, sum(val) AS s, count(*) AS n FROM filtered GROUP BY grp;
			CREATE MATERIALIZED VIEW tmp2 AS SELECT t.id, u.name FROM t JOIN u ON t.grp = u.grp WHERE t.val BETWEEN 400 AND 420;
			CREATE MATERIALIZED VIEW tmp3 AS SELECT id, val FROM t ORDER BY val, id LIMIT 5;
			CREATE MATERIALIZED VIEW tmp4 AS SELECT o.grp, o.n, g.hi FROM over o JOIN grouped g ON o.grp = g.grp;
			SELECT * FROM tmp ORDER BY grp; SELECT * FROM tmp2 ORDER BY id; SELECT * FROM tmp3; SELECT * FROM tmp4 ORDER BY grp;
			DROP MATERIALIZED VIEW tmp4; DROP MATERIALIZED VIEW tmp3; DROP MATERIALIZED VIEW tmp2; DROP MATERIALIZED VIEW tmp`)},
		{name: "DROP of a view read by no other, and CREATE again", changes: true, parts: script(`DROP MATERIALIZED VIEW over;
			CREATE MATERIALIZED VIEW over AS SELECT grp, count(*) AS n FROM filtered GROUP BY grp;
			SELECT * FROM over ORDER BY grp`)},
		// Typed changes take the lock without waiting: they touch the
		// tables alone. Their commit waits.
		{name: "typed changes", changes: true, parts: one(func(x *behindEngine) (string, error) {
			k := x.kept["typed"]
			n, _ := k.(int)
			x.kept["typed"] = n + 1
			s := x.reader
			if err := s.Begin(); err != nil {
				return "", err
			}
			var b strings.Builder
			row := func(id, grp, val int) value.Row {
				return value.Row{value.NewInt(value.Int4, int64(id)), value.NewInt(value.Int4, int64(grp)), value.NewInt(value.Int4, int64(val))}
			}
			for i := range 40 {
				id := 1 + (n*97+i*31)%1000
				fmt.Fprintf(&b, "%v ", s.Replace("t", row(id, i%10, (n*13+i*7)%1000)) == nil)
			}
			if err := s.Insert("t", row(100000+n, n%10, n%300)); err != nil {
				return "", err
			}
			if err := s.Commit(); err != nil {
				return "", err
			}
			_, rows, err := x.e.ViewRows("filtered")
			return b.String() + fmt.Sprint(rows), err
		})},
		// Settings take the lock exclusively; a budget keeps the
		// commits from being left behind while it is set.
		{name: "settings", changes: true, parts: script(`SET deltaview.max_memory = '1GB';
			SELECT name, rows, over_budget FROM deltaview_views ORDER BY name;
			SET deltaview.max_memory = 0;
			SET deltaview.refill_notice = 5;
			SET deltaview.workers = 2;
			SELECT name, rows FROM deltaview_views ORDER BY name`)},
		{name: "clock", parts: []behindRead{func(x *behindEngine) (string, error) {
			if err := x.e.AdvanceClock(); err != nil {
				return "", err
			}
			_, ok := x.e.NextClockChange()
			return fmt.Sprintln(ok), nil
		}, func(x *behindEngine) (string, error) {
			return fmt.Sprintln(x.e.LastTS()), nil
		}, func(x *behindEngine) (string, error) {
			return fmt.Sprintln(x.e.Step()), nil
		}}},
	}
}

// behindSink keeps what a sink receives: the rows Open loads, then each
// step's changes.
type behindSink struct {
	mu    sync.Mutex
	lines []string
}

func (s *behindSink) Open(v engine.SinkView, rows []value.Row) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, fmt.Sprintf("open %s at %d: %v", v.Name, v.Step, rows))
	return nil
}

func (s *behindSink) Prepare(step uint64, changes delta.Batch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, fmt.Sprintf("step %d: %s", step, changes))
	return nil
}

func (s *behindSink) Commit() error { return nil }
func (s *behindSink) Abort()        {}

func (s *behindSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "\n") + "\n"
}

// TestBehindPaths: every path that reads the views waits for the commits
// left behind by the last commit, and reads what it reads on one worker.
func TestBehindPaths(t *testing.T) {
	for _, p := range behindPaths() {
		t.Run(strings.ReplaceAll(p.name, " ", "_"), func(t *testing.T) { runBehindPath(t, p) })
	}
}

// TestBehindConcurrentReads runs the stream on two workers while readers
// read through every path that changes nothing, as fast as they can: each
// read (under one lock) must be what one worker reads after some
// transaction, never an earlier one than the reader's last read (-race
// reports a read that does not wait).
func TestBehindConcurrentReads(t *testing.T) {
	type atom struct {
		name  string
		read  behindRead
		bytes bool
	}
	var atoms []atom
	for _, p := range behindPaths() {
		if p.changes || p.name == "SUBSCRIBE" {
			continue
		}
		for i, r := range p.parts {
			atoms = append(atoms, atom{fmt.Sprintf("%s, part %d", p.name, i), r, p.bytes})
		}
	}
	// A first read of each builds the indexes of the views' rows that
	// reads by a column's value use, which the figures of memory count.
	warm := func(x *behindEngine) {
		for _, a := range atoms {
			if _, err := a.read(x); err != nil {
				t.Fatalf("%s: %v", a.name, err)
			}
		}
	}
	txns := behindStream(behindTxns)
	serial := newBehindEngine(t, 1)
	warm(serial)
	// seen[i][s] lists the transactions after which atom i reads s, -1
	// for before the first.
	seen := make([]map[string][]int, len(atoms))
	for i := range seen {
		seen[i] = map[string][]int{}
	}
	record := func(k int) {
		for i, a := range atoms {
			s, err := a.read(serial)
			if err != nil {
				t.Fatalf("one worker, %s: %v", a.name, err)
			}
			seen[i][s] = append(seen[i][s], k)
		}
	}
	record(-1)
	for k, txn := range txns {
		if _, err := behindRun(serial.writer, txn); err != nil {
			t.Fatal(err)
		}
		record(k)
	}
	par := newBehindEngine(t, 2)
	warm(par)
	var stop atomic.Bool
	var wg sync.WaitGroup
	const readers = 3
	errs := make(chan error, readers)
	var reads atomic.Int64
	for r := range readers {
		x := &behindEngine{e: par.e, reader: par.e.NewSession(), kept: map[string]any{}}
		wg.Go(func() {
			last := make([]int, len(atoms))
			for i := range last {
				last[i] = -1
			}
			for n := r; !stop.Load(); n++ {
				i := n % len(atoms)
				s, err := atoms[i].read(x)
				if err != nil {
					errs <- fmt.Errorf("%s: %v", atoms[i].name, err)
					return
				}
				reads.Add(1)
				if atoms[i].bytes {
					continue // read under -race, not compared
				}
				ks := seen[i][s]
				j := slices.IndexFunc(ks, func(k int) bool { return k >= last[i] })
				if j < 0 {
					errs <- fmt.Errorf("%s read what one worker reads after no transaction from %d on:\n%s", atoms[i].name, last[i], s)
					return
				}
				last[i] = ks[j]
			}
		})
	}
	for k, txn := range txns {
		if _, err := behindRun(par.writer, txn); err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("transaction %d: %v", k, err)
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := reads.Load(); n < int64(len(atoms)) {
		t.Fatalf("%d reads of %d paths", n, len(atoms))
	}
}

// TestBehindClose: Close returns once the views' commits that the last
// commit left behind are done, so that nothing of the engine runs after
// it.
func TestBehindClose(t *testing.T) {
	x := newBehindEngine(t, 2)
	g := &behindGate{}
	defer engine.SetBehindHook(g.hook)()
	g.shut()
	if _, err := behindRun(x.writer, behindStream(1)[0]); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		x.e.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatal("Close returned while the views' commits were held")
	case <-time.After(5 * time.Millisecond):
	}
	g.mu.Lock()
	held := g.held
	g.mu.Unlock()
	if held != 1 {
		t.Fatalf("%d commits held, want 1", held)
	}
	g.open()
	<-closed
}
