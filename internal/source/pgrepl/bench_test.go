package pgrepl_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
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
