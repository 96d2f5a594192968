package pgrepl_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
	_ "github.com/deltaview/deltaview/internal/sink" // CREATE FOREIGN TABLE
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestBenchIngest measures the end-to-end ingest rate of a subscription
// (upstream row changes applied per second, two views maintained) side
// by side with PostgreSQL's own logical replication subscriber applying
// the same stream into a second database of the same server. Each round
// writes a backlog while neither streams; then both catch up on it from
// their own slots, at the same time (PGREPL_BENCH_MODE=concurrent, the
// default), or one after the other, the order alternating from round to
// round (PGREPL_BENCH_MODE=alternate). Each is timed until the last
// upstream transaction is visible: PostgreSQL's by a lookup of the row it
// updated last, deltaview's by a view of the table's count and sum.
// PGREPL_BENCH_TXS transactions of 200 row changes a round (1,000 by
// default), PGREPL_BENCH_ROUNDS rounds (3). PGREPL_BENCH_DIAG=1 also
// reports each walsender's and each subscriber's CPU time and what the
// walsenders waited for (pg_stat_activity sampled every 10 ms).
func TestBenchIngest(t *testing.T) {
	if os.Getenv("PGREPL_BENCH") == "" {
		t.Skip("set PGREPL_BENCH=1 to run the ingest benchmark")
	}
	txs, rounds := 1000, 3
	if n, err := strconv.Atoi(os.Getenv("PGREPL_BENCH_TXS")); err == nil {
		txs = n
	}
	if n, err := strconv.Atoi(os.Getenv("PGREPL_BENCH_ROUNDS")); err == nil {
		rounds = n
	}
	mode := cmp.Or(os.Getenv("PGREPL_BENCH_MODE"), "concurrent")
	diag := os.Getenv("PGREPL_BENCH_DIAG") != ""
	srv := pgtest.Start(t)
	conn, connStr := upstream(t)
	target := srv.Conn(t)
	targetStr := srv.ConnString(target.Config().Database)
	const schema = "CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val bigint, txt text)"
	exec(t, conn, schema+"; CREATE PUBLICATION p FOR TABLE t")
	// A subscription into the same server cannot create its slot itself.
	exec(t, conn, "SELECT pg_create_logical_replication_slot('pgsub', 'pgoutput')")
	exec(t, target, schema)
	exec(t, target, "CREATE SUBSCRIPTION pgsub CONNECTION '"+connStr+"' PUBLICATION p WITH (create_slot = false, slot_name = 'pgsub', copy_data = false, enabled = false)")

	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION s CONNECTION '"+connStr+"' PUBLICATION p")
	dv(t, e, "CREATE MATERIALIZED VIEW g AS SELECT grp, count(*) AS n, sum(val) AS s FROM t GROUP BY grp")
	// tot is what the catch-up is polled by: reading it costs nothing.
	dv(t, e, "CREATE MATERIALIZED VIEW tot AS SELECT count(*) AS n, sum(val) AS s FROM t")
	waitApplied(t, e, conn, "s")
	dv(t, e, "ALTER SUBSCRIPTION s DISABLE")
	waitSlotInactive(t, conn, "s")

	// Each follower polls on a connection of its own.
	pgPoll := connect(t, targetStr)
	sampler := connect(t, connStr)

	t.Logf("%d upstream transactions of 200 row changes a round, %d rounds, %s", txs, rounds, mode)
	var pgTotal, dvTotal float64
	for r := range rounds {
		// The workload: per transaction 100 insertions, 60 updates (the
		// key kept) and 40 deletions.
		start := time.Now()
		first := r * txs * 100
		for i := range txs {
			base := first + i*100
			exec(t, conn, fmt.Sprintf(`BEGIN;
INSERT INTO t SELECT g, g %% 50, g, 'row ' || g FROM generate_series(%d, %d) g;
UPDATE t SET val = val + 1 WHERE id BETWEEN %d AND %d;
DELETE FROM t WHERE id BETWEEN %d AND %d;
COMMIT`, base, base+99, base+10, base+69, base+70, base+99))
		}
		upstreamSec := time.Since(start).Seconds()
		want := pgRows(t, conn, "SELECT count(*), sum(val) FROM t")
		// The last transaction's last update: once it is visible, all is.
		last := first + (txs-1)*100 + 69
		pgDone := fmt.Sprintf("SELECT count(*) FROM t WHERE id = %d AND val = %d", last, last+1)

		var smp *walSampler
		if diag {
			// What each walsender decodes again before it sends: from
			// the slot's restart_lsn to its confirmed position.
			t.Logf("  slots before the round: %s", strings.Join(pgRows(t, conn, "SELECT slot_name, pg_current_wal_lsn() - restart_lsn, pg_current_wal_lsn() - confirmed_flush_lsn FROM pg_replication_slots ORDER BY slot_name"), "; "))
			smp = startSampler(sampler)
		}
		var ru0 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		io0, _ := os.ReadFile("/proc/self/io")
		runPG := func() (float64, error) {
			start := time.Now()
			if _, err := pgPoll.Exec(t.Context(), "ALTER SUBSCRIPTION pgsub ENABLE"); err != nil {
				return 0, err
			}
			for {
				var n int
				if err := pgPoll.QueryRow(t.Context(), pgDone).Scan(&n); err != nil {
					return 0, err
				}
				if n == 1 {
					return time.Since(start).Seconds(), nil
				}
				if time.Since(start) > 3*time.Minute {
					return 0, fmt.Errorf("PostgreSQL's subscriber did not catch up")
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		runDV := func() (float64, error) {
			start := time.Now()
			if err := dvErr(e, "ALTER SUBSCRIPTION s ENABLE"); err != nil {
				return 0, err
			}
			for {
				got, err := dvQuery(e, "SELECT n, s FROM tot")
				if err != nil {
					return 0, err
				}
				if sameText(got, want) {
					return time.Since(start).Seconds(), nil
				}
				if time.Since(start) > 3*time.Minute {
					return 0, fmt.Errorf("deltaview did not catch up")
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		var pgSec, dvSec float64
		var pgErr, dvErr error
		var pgCPU, dvCPU string
		order := mode
		switch {
		case mode == "concurrent":
			var wg sync.WaitGroup
			wg.Go(func() {
				pgSec, pgErr = runPG()
				pgCPU = smp.cpu("pgsub")
				if diag {
					pgCPU += "; " + applyCPU(t, pgPoll, "pgsub")
				}
			})
			wg.Go(func() {
				dvSec, dvErr = runDV()
				dvCPU = smp.cpu("deltaview")
			})
			wg.Wait()
		case r%2 == 0:
			order = "PostgreSQL first"
			pgSec, pgErr = runPG()
			pgCPU = smp.cpu("pgsub")
			if pgErr == nil {
				dvSec, dvErr = runDV()
				dvCPU = smp.cpu("deltaview")
			}
		default:
			order = "deltaview first"
			dvSec, dvErr = runDV()
			dvCPU = smp.cpu("deltaview")
			if dvErr == nil {
				pgSec, pgErr = runPG()
				pgCPU = smp.cpu("pgsub")
			}
		}
		var ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		io1, _ := os.ReadFile("/proc/self/io")
		waits := smp.stop()
		if err := cmp.Or(pgErr, dvErr); err != nil {
			t.Fatal(err)
		}
		// Both idle a moment, as live subscribers would, so that each
		// confirms the server's WAL end and its slot's restart position
		// moves on: disabled at once, whichever caught up last decoded
		// much of its previous round's WAL again in the next.
		time.Sleep(2 * time.Second)
		// Both stop; the slots are free for the next round's backlog.
		exec(t, target, "ALTER SUBSCRIPTION pgsub DISABLE")
		dv(t, e, "ALTER SUBSCRIPTION s DISABLE")
		waitSlotInactive(t, conn, "pgsub")
		waitSlotInactive(t, conn, "s")
		if got := pgRows(t, target, "SELECT count(*), sum(val) FROM t"); !sameText(got, want) {
			t.Fatalf("PostgreSQL's subscriber: %v, upstream %v", got, want)
		}
		n := float64(txs * 200)
		load, _ := os.ReadFile("/proc/loadavg")
		t.Logf("round %d (%s; upstream wrote it in %.2f s; load average %s): PostgreSQL's subscriber %.2f s, %.0f changes/s; deltaview %.2f s, %.0f changes/s",
			r+1, order, upstreamSec, strings.Join(strings.Fields(string(load))[:3], " "), pgSec, n/pgSec, dvSec, n/dvSec)
		pgTotal += pgSec
		dvTotal += dvSec
		if diag {
			cpu := func(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }
			t.Logf("  PostgreSQL's %s", pgCPU)
			t.Logf("  deltaview's %s", dvCPU)
			t.Logf("  deltaview's process (polling included): %.2f s CPU, %d reads, %d+%d switches", cpu(ru1.Utime)+cpu(ru1.Stime)-cpu(ru0.Utime)-cpu(ru0.Stime),
				ioField(io1, "syscr")-ioField(io0, "syscr"), ru1.Nvcsw-ru0.Nvcsw, ru1.Nivcsw-ru0.Nivcsw)
			t.Logf("  walsender waits: %s", waits)
			t.Logf("  slots: %s", strings.Join(pgRows(t, conn, "SELECT slot_name, spill_txns, spill_bytes, stream_txns, total_txns, total_bytes FROM pg_stat_replication_slots"), "; "))
		}
	}
	n := float64(rounds * txs * 200)
	t.Logf("all rounds: PostgreSQL's subscriber %.2f s, %.0f changes/s; deltaview %.2f s, %.0f changes/s", pgTotal, n/pgTotal, dvTotal, n/dvTotal)
	sameRows(t, e, conn, "SELECT * FROM g", "SELECT grp, count(*) AS n, sum(val) AS s FROM t GROUP BY grp")
	exec(t, target, "DROP SUBSCRIPTION pgsub")
	dv(t, e, "DROP SUBSCRIPTION s")
}

func sameText(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// connect opens a connection of its own, closed when t ends.
func connect(t *testing.T, connStr string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(t.Context(), connStr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// waitSlotInactive waits until no walsender streams slot.
func waitSlotInactive(t *testing.T, conn *pgx.Conn, slot string) {
	t.Helper()
	for i := 0; ; i++ {
		if pgRows(t, conn, "SELECT active FROM pg_replication_slots WHERE slot_name = '"+slot+"'")[0] == "f" {
			return
		}
		if i == 3000 {
			t.Fatalf("slot %s still active", slot)
		}
		sleep()
	}
}

var dvPrepared sync.Map // query text → *engine.Prepared

// dvQuery is dvRows for another goroutine than the test's.
// The query is prepared once, as pgx prepares PostgreSQL's follower's
// poll: parsing it every few milliseconds took a tenth of the process's
// CPU time.
func dvQuery(e *engine.Engine, query string) ([]string, error) {
	s := e.NewSession()
	defer s.Close()
	p, ok := dvPrepared.Load(query)
	if !ok {
		st, err := sql.Parse(query)
		if err != nil {
			return nil, err
		}
		pp, err := s.Prepare(st)
		if err != nil {
			return nil, err
		}
		p, _ = dvPrepared.LoadOrStore(query, pp)
	}
	res, err := s.ExecPrepared(p.(*engine.Prepared), nil)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range res[0].Rows {
		f := make([]string, len(r))
		for i, v := range r {
			f[i] = v.String()
		}
		out = append(out, strings.Join(f, "|"))
	}
	sort.Strings(out)
	return out, nil
}

// walSampler samples what the walsenders wait for, by application name
// (deltaview, or the subscription's name for PostgreSQL's), and their
// process ids.
type walSampler struct {
	mu    sync.Mutex
	waits map[string]map[string]int
	pids  map[string]int
	done  chan struct{}
	end   chan struct{}
}

func startSampler(conn *pgx.Conn) *walSampler {
	s := &walSampler{waits: map[string]map[string]int{}, pids: map[string]int{}, done: make(chan struct{}), end: make(chan struct{})}
	go func() {
		defer close(s.end)
		for {
			select {
			case <-s.done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			rows, err := conn.Query(context.Background(), "SELECT application_name, pid, coalesce(wait_event, 'running') FROM pg_stat_activity WHERE backend_type = 'walsender'")
			if err != nil {
				return
			}
			for rows.Next() {
				var app, wait string
				var pid int
				if rows.Scan(&app, &pid, &wait) != nil {
					continue
				}
				s.mu.Lock()
				if s.waits[app] == nil {
					s.waits[app] = map[string]int{}
				}
				s.waits[app][wait]++
				s.pids[app] = pid
				s.mu.Unlock()
			}
			rows.Close()
		}
	}()
	return s
}

// cpu is what the walsender of app has used so far.
func (s *walSampler) cpu(app string) string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	pid := s.pids[app]
	s.mu.Unlock()
	return "walsender " + procStats(pid)
}

// applyCPU is what PostgreSQL's apply worker of subscription sub has used
// so far.
func applyCPU(t *testing.T, conn *pgx.Conn, sub string) string {
	var pid int
	if err := conn.QueryRow(t.Context(), "SELECT pid FROM pg_stat_subscription WHERE subname = $1 AND relid IS NULL", sub).Scan(&pid); err != nil {
		return err.Error()
	}
	return "apply worker " + procStats(pid)
}

// procStats is what process pid has used: CPU time (user and system),
// read and write system calls, voluntary and involuntary context
// switches.
func procStats(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return err.Error()
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	u, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	kv := map[string]string{}
	for _, name := range []string{"io", "status"} {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, name))
		for line := range strings.Lines(string(b)) {
			k, v, _ := strings.Cut(line, ":")
			kv[k] = strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("%.2f s CPU, %s reads, %s writes, %s+%s switches", float64(u+st)/100, kv["syscr"], kv["syscw"], kv["voluntary_ctxt_switches"], kv["nonvoluntary_ctxt_switches"])
}

func ioField(b []byte, name string) int {
	for line := range strings.Lines(string(b)) {
		if k, v, _ := strings.Cut(line, ":"); k == name {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

func (s *walSampler) stop() string {
	if s == nil {
		return ""
	}
	close(s.done)
	<-s.end
	var out []string
	for _, app := range slices.Sorted(maps.Keys(s.waits)) {
		var w []string
		for _, k := range slices.Sorted(maps.Keys(s.waits[app])) {
			w = append(w, fmt.Sprintf("%s %d", k, s.waits[app][k]))
		}
		out = append(out, app+": "+strings.Join(w, ", "))
	}
	return strings.Join(out, "; ")
}

// TestBenchLag measures the lag of applying an upstream transaction
// (the time it is applied minus the time its rows were written upstream,
// just before its COMMIT) under a steady upstream load, for three
// followers of one stream, running together: PostgreSQL's own subscriber
// applying into a second database (its table stamps each row with
// clock_timestamp() as it is inserted), a deltaview subscription (timed
// as the commit that applies the transaction delivers a view's delta),
// and a foreign table keeping that view in a table of the second database
// (stamped as PostgreSQL's). Run with PGREPL_BENCH=1; PGREPL_BENCH_RATE
// transactions a second (200 by default) of 10 inserted rows each, for
// PGREPL_BENCH_SECONDS (10).
func TestBenchLag(t *testing.T) {
	if os.Getenv("PGREPL_BENCH") == "" {
		t.Skip("set PGREPL_BENCH=1 to run the lag benchmark")
	}
	rate, seconds := 200, 10
	if n, err := strconv.Atoi(os.Getenv("PGREPL_BENCH_RATE")); err == nil {
		rate = n
	}
	if n, err := strconv.Atoi(os.Getenv("PGREPL_BENCH_SECONDS")); err == nil {
		seconds = n
	}
	srv := pgtest.Start(t)
	conn, connStr := upstream(t)
	target := srv.Conn(t)
	targetStr := srv.ConnString(target.Config().Database)
	exec(t, conn, "CREATE TABLE lt (id int PRIMARY KEY, grp int NOT NULL, sent bigint NOT NULL); CREATE PUBLICATION pl FOR TABLE lt")
	exec(t, target, `CREATE TABLE lt (id int PRIMARY KEY, grp int NOT NULL, sent bigint NOT NULL, applied timestamptz DEFAULT clock_timestamp());
CREATE TABLE lv_out (id int PRIMARY KEY, sent bigint, applied timestamptz DEFAULT clock_timestamp())`)
	// A subscription into the same server cannot create its slot itself.
	exec(t, conn, "SELECT pg_create_logical_replication_slot('pgsub', 'pgoutput')")
	exec(t, target, "CREATE SUBSCRIPTION pgsub CONNECTION '"+connStr+"' PUBLICATION pl WITH (create_slot = false, slot_name = 'pgsub', copy_data = false)")

	e := engine.New()
	defer e.Close()
	var opts []string
	for _, kv := range strings.Fields(targetStr) {
		k, v, _ := strings.Cut(kv, "=")
		opts = append(opts, k+" '"+v+"'")
	}
	dv(t, e, "CREATE SUBSCRIPTION s CONNECTION '"+connStr+"' PUBLICATION pl")
	dv(t, e, "CREATE MATERIALIZED VIEW lv AS SELECT id, sent FROM lt")
	dv(t, e, "CREATE SERVER wh FOREIGN DATA WRAPPER postgres OPTIONS ("+strings.Join(opts, ", ")+")")
	dv(t, e, "CREATE FOREIGN TABLE lv_out () SERVER wh OPTIONS (view 'lv')")
	var mu sync.Mutex
	var dvLags []float64 // milliseconds
	stop, err := e.Subscribe("lv", func(_ uint64, z zset.ZSet) {
		now := time.Now().UnixMicro()
		mu.Lock()
		for _, en := range z {
			if en.W > 0 {
				dvLags = append(dvLags, float64(now-en.Row[1].Int())/1e3)
			}
		}
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	waitApplied(t, e, conn, "s")

	// The load: one transaction every 1/rate s, on a schedule that does
	// not drift when one is late.
	start := time.Now()
	interval := time.Second / time.Duration(rate)
	txs := rate * seconds
	for i := range txs {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		exec(t, conn, fmt.Sprintf(`BEGIN;
INSERT INTO lt SELECT g, g %% 50, (extract(epoch FROM clock_timestamp()) * 1e6)::bigint FROM generate_series(%d, %d) g;
COMMIT`, i*10, i*10+9))
	}
	loadSec := time.Since(start).Seconds()
	want := pgRows(t, conn, "SELECT count(*) FROM lt")
	deadline := time.Now().Add(5 * time.Minute)
	for !sameText(pgRows(t, target, "SELECT count(*) FROM lt"), want) || !sameText(pgRows(t, target, "SELECT count(*) FROM lv_out"), want) {
		if time.Now().After(deadline) {
			t.Fatal("the targets did not catch up")
		}
		time.Sleep(10 * time.Millisecond)
	}
	waitApplied(t, e, conn, "s")
	pct := func(table string) string {
		r := pgRows(t, target, "SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY l)::numeric, 2), round(percentile_cont(0.99) WITHIN GROUP (ORDER BY l)::numeric, 2) FROM (SELECT extract(epoch FROM applied) * 1e3 - sent / 1e3 AS l FROM "+table+") x")
		return r[0]
	}
	mu.Lock()
	slices.Sort(dvLags)
	p50, p99 := dvLags[len(dvLags)/2], dvLags[len(dvLags)*99/100]
	n := len(dvLags)
	mu.Unlock()
	t.Logf("%d transactions of 10 rows in %.1f s (%.0f a second)", txs, loadSec, float64(txs)/loadSec)
	t.Logf("lag in ms, p50 p99: PostgreSQL's subscriber %s; deltaview %.2f %.2f (%d rows); deltaview and its foreign table %s", pct("lt"), p50, p99, n, pct("lv_out"))
	exec(t, target, "DROP SUBSCRIPTION pgsub")
	dv(t, e, "DROP FOREIGN TABLE lv_out; DROP SUBSCRIPTION s")
}
