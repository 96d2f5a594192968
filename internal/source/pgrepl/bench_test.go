package pgrepl_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
	_ "github.com/deltaview/deltaview/internal/sink" // CREATE FOREIGN TABLE
	"github.com/deltaview/deltaview/internal/zset"
)

// TestBenchIngest measures the end-to-end ingest rate of a subscription
// (upstream row changes applied per second, a view maintained) side by
// side with PostgreSQL's own logical replication subscriber applying the
// same stream into a second database of the same server. Both catch up
// on the same backlog: the workload runs while neither streams, each then
// starts from its own slot created before it, and is timed until its
// table holds what upstream holds (polled every 5 ms). Run with PGREPL_BENCH=1
// (PGREPL_BENCH_TXS transactions of 200 row changes, 1,000 by default).
func TestBenchIngest(t *testing.T) {
	if os.Getenv("PGREPL_BENCH") == "" {
		t.Skip("set PGREPL_BENCH=1 to run the ingest benchmark")
	}
	txs := 1000
	if n, err := strconv.Atoi(os.Getenv("PGREPL_BENCH_TXS")); err == nil {
		txs = n
	}
	srv := pgtest.Start(t)
	conn, connStr := upstream(t)
	target := srv.Conn(t)
	const schema = "CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val bigint, txt text)"
	exec(t, conn, schema+"; CREATE PUBLICATION p FOR TABLE t")
	exec(t, conn, "SELECT pg_create_logical_replication_slot('pgsub', 'pgoutput')")
	exec(t, target, schema)

	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION s CONNECTION '"+connStr+"' PUBLICATION p")
	dv(t, e, "CREATE MATERIALIZED VIEW g AS SELECT grp, count(*) AS n, sum(val) AS s FROM t GROUP BY grp")
	// tot is what the catch-up is polled by: reading it costs nothing.
	dv(t, e, "CREATE MATERIALIZED VIEW tot AS SELECT count(*) AS n, sum(val) AS s FROM t")
	waitApplied(t, e, conn, "s")
	dv(t, e, "ALTER SUBSCRIPTION s DISABLE")

	// The workload: per transaction 100 insertions, 60 updates (the key
	// kept) and 40 deletions.
	start := time.Now()
	changes := 0
	for i := range txs {
		base := i * 100
		script := fmt.Sprintf(`BEGIN;
INSERT INTO t SELECT g, g %% 50, g, 'row ' || g FROM generate_series(%d, %d) g;
UPDATE t SET val = val + 1 WHERE id BETWEEN %d AND %d;
DELETE FROM t WHERE id BETWEEN %d AND %d;
COMMIT`, base, base+99, base+10, base+69, base+70, base+99)
		exec(t, conn, script)
		changes += 200
	}
	upstreamSec := time.Since(start).Seconds()
	want := pgRows(t, conn, "SELECT count(*), sum(val) FROM t")

	// PostgreSQL's subscriber, from its slot.
	runPG := func() float64 {
		start := time.Now()
		exec(t, target, "CREATE SUBSCRIPTION pgsub CONNECTION '"+connStr+"' PUBLICATION p WITH (create_slot = false, slot_name = 'pgsub', copy_data = false)")
		for !sameText(pgRows(t, target, "SELECT count(*), sum(val) FROM t"), want) {
			if time.Since(start) > 10*time.Minute {
				t.Fatal("PostgreSQL's subscriber did not catch up")
			}
			time.Sleep(5 * time.Millisecond)
		}
		sec := time.Since(start).Seconds()
		exec(t, target, "DROP SUBSCRIPTION pgsub")
		return sec
	}
	// deltaview, from its slot.
	runDV := func() float64 {
		start := time.Now()
		dv(t, e, "ALTER SUBSCRIPTION s ENABLE")
		for !sameText(dvRows(t, e, "SELECT n, s FROM tot"), want) {
			if st := status(t, e, "s"); st.state == "failed" {
				t.Fatal(st.lastErr)
			}
			time.Sleep(5 * time.Millisecond)
		}
		return time.Since(start).Seconds()
	}
	// PGREPL_BENCH_ORDER=dv runs deltaview first.
	var pgSec, dvSec float64
	if os.Getenv("PGREPL_BENCH_ORDER") == "dv" {
		dvSec = runDV()
		pgSec = runPG()
	} else {
		pgSec = runPG()
		dvSec = runDV()
	}
	waitApplied(t, e, conn, "s")
	sameRows(t, e, conn, "SELECT * FROM g", "SELECT grp, count(*) AS n, sum(val) AS s FROM t GROUP BY grp")
	t.Logf("%d upstream transactions, %d row changes (upstream wrote them in %.2f s)", txs, changes, upstreamSec)
	t.Logf("PostgreSQL's subscriber: %.2f s, %.0f row changes/s", pgSec, float64(changes)/pgSec)
	t.Logf("deltaview (a view maintained): %.2f s, %.0f row changes/s", dvSec, float64(changes)/dvSec)
	dv(t, e, "DROP SUBSCRIPTION s")
}

func sameText(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

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
