package pgrepl_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestSubscription follows a publication through its initial copy and
// every message kind: insertions, updates under DEFAULT and FULL
// identity, a change of key, an unchanged TOASTed value, deletions by key
// and by row, TRUNCATE, and a table without a primary key.
func TestSubscription(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE a (id int PRIMARY KEY, v text, n numeric(10,2), big text);
CREATE TABLE b (x int, y varchar(20));
ALTER TABLE b REPLICA IDENTITY FULL;
CREATE TABLE f (id int PRIMARY KEY, grp int NOT NULL, w bigint);
ALTER TABLE f REPLICA IDENTITY FULL;
INSERT INTO a VALUES (1, 'one', 1.5, NULL), (2, 'two', 2.25, repeat(md5('x'), 4000));
INSERT INTO b VALUES (1, 'p'), (1, 'p'), (2, 'q');
INSERT INTO f VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30);
CREATE PUBLICATION p FOR TABLE a, b, f;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION s CONNECTION '"+connStr+"' PUBLICATION p WITH (slot_name = 's_slot')")
	dv(t, e, `CREATE MATERIALIZED VIEW va AS SELECT id, v, n, length(big) AS bl FROM a;
CREATE MATERIALIZED VIEW vb AS SELECT x, y, count(*) AS c FROM b GROUP BY x, y;
CREATE MATERIALIZED VIEW vf AS SELECT grp, sum(w) AS s, count(*) AS c FROM f GROUP BY grp`)
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "s")
		sameRows(t, e, conn, "SELECT * FROM va", "SELECT id, v, n, length(big) AS bl FROM a")
		sameRows(t, e, conn, "SELECT * FROM vb", "SELECT x, y, count(*) AS c FROM b GROUP BY x, y")
		sameRows(t, e, conn, "SELECT * FROM vf", "SELECT grp, sum(w) AS s, count(*) AS c FROM f GROUP BY grp")
	}
	check()
	if st := status(t, e, "s"); st.rowsCopied != 8 || st.state != "streaming" {
		t.Errorf("after the copy: %+v", st)
	}
	// Idle, the subscription confirms the server's position: no lag.
	for i := 0; ; i++ {
		lag := dvRows(t, e, "SELECT lag_bytes, lag_seconds FROM deltaview_subscriptions")
		if len(lag) == 1 && lag[0] == "0|0" {
			break
		}
		if i == 1000 {
			t.Fatalf("idle lag: %v", lag)
		}
		sleep()
	}
	exec(t, conn, `
INSERT INTO a VALUES (3, 'three', 3, repeat(md5('y'), 4000));
UPDATE a SET v = 'TWO' WHERE id = 2;
UPDATE a SET id = 20 WHERE id = 2;
UPDATE a SET id = 30, big = 'small' WHERE id = 3;
DELETE FROM a WHERE id = 1;
DELETE FROM b WHERE ctid = (SELECT min(ctid) FROM b WHERE x = 1);
UPDATE b SET y = 'r' WHERE x = 2;
UPDATE f SET grp = 2 WHERE id = 1;
UPDATE f SET id = 4 WHERE id = 2;
DELETE FROM f WHERE id = 3;
`)
	check()
	exec(t, conn, `BEGIN; INSERT INTO a SELECT g, 'g' || g, g, NULL FROM generate_series(100, 2100) g; UPDATE a SET n = n + 1 WHERE id > 1000; COMMIT`)
	exec(t, conn, `BEGIN; INSERT INTO a VALUES (5000, 'no', 0, NULL); ROLLBACK`)
	check()
	exec(t, conn, `TRUNCATE a, b; INSERT INTO b VALUES (7, 'z')`)
	st := check
	st()
	if s := status(t, e, "s"); s.txs != 3 {
		t.Errorf("transactions: %+v", s)
	}
	dv(t, e, "ALTER SUBSCRIPTION s DISABLE")
	exec(t, conn, `INSERT INTO a VALUES (6000, 'while disabled', 1, NULL)`)
	dv(t, e, "ALTER SUBSCRIPTION s ENABLE")
	check()
	dv(t, e, "DROP SUBSCRIPTION s")
	if rows := pgRows(t, conn, "SELECT slot_name FROM pg_replication_slots"); len(rows) != 0 {
		t.Errorf("slots after DROP SUBSCRIPTION: %v", rows)
	}
	if err := dvErr(e, "DROP SUBSCRIPTION s"); pgerr.Code(err) != pgerr.UndefinedObject {
		t.Errorf("DROP of a dropped subscription: %v", err)
	}
	dv(t, e, "DROP SUBSCRIPTION IF EXISTS s")
}

// TestSubscriptionErrors checks the errors of CREATE SUBSCRIPTION: a
// table whose updates name no row, a type deltaview does not have, a
// local table of other columns, a slot that exists, a transaction block.
func TestSubscriptionErrors(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE n (id int PRIMARY KEY, v text);
ALTER TABLE n REPLICA IDENTITY NOTHING;
CREATE TABLE nokey (v text);
CREATE TABLE j (id int PRIMARY KEY, doc pg_lsn);
CREATE TABLE ok (id int PRIMARY KEY, v text);
CREATE PUBLICATION pn FOR TABLE n;
CREATE PUBLICATION pk FOR TABLE nokey;
CREATE PUBLICATION pins FOR TABLE n, nokey WITH (publish = 'insert');
CREATE PUBLICATION pj FOR TABLE j;
CREATE PUBLICATION pok FOR TABLE ok;
`)
	e := engine.New()
	defer e.Close()
	create := func(name, pub, with string) error {
		return dvErr(e, "CREATE SUBSCRIPTION "+name+" CONNECTION '"+connStr+"' PUBLICATION "+pub+with)
	}
	for _, c := range []struct {
		pub, with, code, msg string
	}{
		{"pn", "", "55000", `table "public"."n" has no replica identity`},
		{"pk", "", "55000", `table "public"."nokey" has no replica identity`},
		{"pj", "", "0A000", `column doc of table "public"."j" has type pg_lsn`},
		{"nosuch", "", "42704", `publication "nosuch" does not exist upstream`},
	} {
		err := create("s_"+c.pub, c.pub, c.with)
		if pgerr.Code(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("publication %s: %v (%s), want %s %s", c.pub, err, pgerr.Code(err), c.code, c.msg)
		}
	}
	dv(t, e, "CREATE TABLE ok (id int PRIMARY KEY, v int)")
	if err := create("s_ok", "pok", ""); pgerr.Code(err) != pgerr.DatatypeMismatch {
		t.Errorf("a local table of other columns: %v", err)
	}
	dv(t, e, "DROP TABLE ok; CREATE TABLE ok (id int PRIMARY KEY, v text)")
	// Inserts only: identity NOTHING is no obstacle.
	dv(t, e, "CREATE SUBSCRIPTION s_ins CONNECTION '"+connStr+"' PUBLICATION pins")
	if err := create("s2", "pok", " WITH (slot_name = s_ins)"); pgerr.Code(err) != pgerr.DuplicateObject {
		t.Errorf("a slot in use: %v", err)
	}
	exec(t, conn, "SELECT pg_create_logical_replication_slot('taken', 'pgoutput')")
	if err := create("s3", "pok", " WITH (slot_name = taken)"); pgerr.Code(err) != pgerr.DuplicateObject || !strings.Contains(err.Error(), `replication slot "taken" exists upstream`) {
		t.Errorf("a slot that exists upstream: %v", err)
	}
	if err := dvErr(e, "BEGIN; CREATE SUBSCRIPTION s4 CONNECTION '"+connStr+"' PUBLICATION pok"); pgerr.Code(err) != pgerr.ActiveTransaction {
		t.Errorf("inside a block: %v", err)
	}
	dv(t, e, "CREATE SUBSCRIPTION s5 CONNECTION '"+connStr+"' PUBLICATION pok")
	exec(t, conn, "INSERT INTO ok VALUES (1, 'a'), (2, 'b')")
	waitApplied(t, e, conn, "s5")
	sameRows(t, e, conn, "SELECT * FROM ok", "SELECT * FROM ok")
	// A slot dropped under a subscription is a clear error, not a new
	// snapshot.
	dv(t, e, "ALTER SUBSCRIPTION s5 DISABLE")
	// The walsender leaves the slot a moment after the connection closes.
	for i := 0; ; i++ {
		_, err := pgtest.Query(t, conn, "SELECT pg_drop_replication_slot('s5')")
		if err == nil {
			break
		}
		if i == 500 || !strings.Contains(err.Error(), "55006") {
			t.Fatal(err)
		}
		sleep()
	}
	dv(t, e, "ALTER SUBSCRIPTION s5 ENABLE")
	for i := 0; ; i++ {
		st := status(t, e, "s5")
		if st.state == "failed" {
			if !strings.Contains(st.lastErr, `replication slot "s5" of subscription "s5" no longer exists upstream`) {
				t.Errorf("a dropped slot: %s", st.lastErr)
			}
			break
		}
		if i == 1000 {
			t.Fatalf("a dropped slot: %+v", st)
		}
		sleep()
	}
	exec(t, conn, "SELECT pg_drop_replication_slot('taken')")
	dv(t, e, "DROP SUBSCRIPTION s_ins; DROP SUBSCRIPTION s5")
}

// TestChangeStreamPartial subscribes a table of identity DEFAULT as a
// change-stream table: a view that partial propagation can maintain keeps
// no copy of it (EXPLAIN says so), takes the partial updates and true
// partial deletions as they come, and equals the same view over a
// subscription of the table with identity FULL.
func TestChangeStreamPartial(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE d (id int PRIMARY KEY, grp int NOT NULL, val int, big text);
ALTER TABLE d ALTER COLUMN big SET STORAGE EXTERNAL;
CREATE TABLE f (id int PRIMARY KEY, grp int NOT NULL, val int, big text);
ALTER TABLE f ALTER COLUMN big SET STORAGE EXTERNAL;
ALTER TABLE f REPLICA IDENTITY FULL;
INSERT INTO d SELECT g, g % 4, g, repeat('x', 3000) FROM generate_series(1, 50) g;
INSERT INTO f SELECT * FROM d;
CREATE PUBLICATION p FOR TABLE d, f;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION s CONNECTION '"+connStr+"' PUBLICATION p WITH (change_stream = true)")
	dv(t, e, `CREATE MATERIALIZED VIEW vd AS SELECT id, grp, val + 1 AS v, big FROM d;
CREATE MATERIALIZED VIEW vf AS SELECT id, grp, val + 1 AS v, big FROM f`)
	plan := strings.Join(dvRows(t, e, "EXPLAIN MATERIALIZED VIEW vd"), "\n")
	if !strings.Contains(plan, "change-stream table d (keeps no rows)") {
		t.Errorf("EXPLAIN of a view over a DEFAULT-identity table:\n%s", plan)
	}
	exec(t, conn, `
UPDATE d SET val = val + 1 WHERE id % 3 = 0; UPDATE f SET val = val + 1 WHERE id % 3 = 0;
UPDATE d SET grp = 3 WHERE id % 7 = 0; UPDATE f SET grp = 3 WHERE id % 7 = 0;
DELETE FROM d WHERE id % 5 = 0; DELETE FROM f WHERE id % 5 = 0;
UPDATE d SET big = 'y' WHERE id = 1; UPDATE f SET big = 'y' WHERE id = 1;
INSERT INTO d VALUES (100, 1, 1, 'z'); INSERT INTO f VALUES (100, 1, 1, 'z');
`)
	waitApplied(t, e, conn, "s")
	sameRows(t, e, conn, "SELECT * FROM vd", "SELECT id, grp, val + 1 AS v, big FROM d")
	if got, want := dvRows(t, e, "SELECT * FROM vd"), dvRows(t, e, "SELECT * FROM vf"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("DEFAULT and FULL identity differ:\n%v\n%v", head(got), head(want))
	}
	if rows := dvRows(t, e, "SELECT rows FROM deltaview_tables WHERE name = 'd'"); len(rows) != 1 || rows[0] != "0" {
		t.Errorf("rows kept of d: %v", rows)
	}
	dv(t, e, "DROP SUBSCRIPTION s")
}

// TestSchemaChange checks that columns added and dropped upstream are
// added and dropped here while no view reads the table (existing rows
// taking NULL, or the default ADD COLUMN stored), and that a change of
// columns of a table a view reads stops the subscription with an error
// naming table and column, applying nothing of the transaction that
// follows it and confirming nothing past it.
func TestSchemaChange(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `CREATE TABLE t (id int PRIMARY KEY, v text); INSERT INTO t VALUES (1, 'a'); CREATE PUBLICATION p FOR TABLE t`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION s CONNECTION '"+connStr+"' PUBLICATION p")
	exec(t, conn, "INSERT INTO t VALUES (2, 'b')")
	waitApplied(t, e, conn, "s")
	exec(t, conn, "ALTER TABLE t ADD COLUMN w int; INSERT INTO t VALUES (3, 'c', 3)")
	exec(t, conn, "ALTER TABLE t ADD COLUMN z numeric(4,1) DEFAULT 7.5; INSERT INTO t VALUES (4, 'd', 4, 8)")
	exec(t, conn, "ALTER TABLE t DROP COLUMN v; UPDATE t SET w = 9 WHERE id = 1")
	waitApplied(t, e, conn, "s")
	sameRows(t, e, conn, "SELECT * FROM t", "SELECT * FROM t")
	if got := dvRows(t, e, "SELECT * FROM t WHERE id = 2"); strings.Join(got, " ") != "2|NULL|7.5" {
		t.Errorf("row 2: %v", got)
	}
	// A view reads t now: the next change of columns stops the
	// subscription.
	dv(t, e, "CREATE MATERIALIZED VIEW mv AS SELECT id, w FROM t")
	before := waitApplied(t, e, conn, "s")
	exec(t, conn, "ALTER TABLE t DROP COLUMN z; INSERT INTO t VALUES (5, 5)")
	var st subStatus
	for i := 0; ; i++ {
		if st = status(t, e, "s"); st.state == "failed" {
			break
		}
		if i == 1000 {
			t.Fatalf("after ALTER TABLE upstream: %+v", st)
		}
		sleep()
	}
	if !strings.Contains(st.lastErr, `the columns of table "public"."t" changed upstream (column z dropped), and views here read table t`) || st.txs != before.txs {
		t.Errorf("after ALTER TABLE upstream: %+v (before: %+v)", st, before)
	}
	if got := dvRows(t, e, "SELECT id FROM t"); strings.Join(got, " ") != "1 2 3 4" {
		t.Errorf("rows: %v", got)
	}
	var confirmed string
	if err := conn.QueryRow(t.Context(), "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = 's'").Scan(&confirmed); err != nil {
		t.Fatal(err)
	}
	if lsnGreater(confirmed, st.applied) {
		t.Errorf("the slot confirmed %s, past the applied %s", confirmed, st.applied)
	}
	dv(t, e, "DROP SUBSCRIPTION s")
}

// TestUpstreamRestart restarts the upstream server under a subscription
// in the middle of a stream of transactions: deltaview reconnects,
// resumes from its confirmed position, and nothing is lost or doubled.
func TestUpstreamRestart(t *testing.T) {
	srv := pgtest.Start(t)
	conn, connStr := upstream(t)
	exec(t, conn, `CREATE TABLE t (id int PRIMARY KEY, grp int, val int); CREATE PUBLICATION p FOR TABLE t`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION s CONNECTION '"+connStr+"' PUBLICATION p")
	dv(t, e, "CREATE MATERIALIZED VIEW v AS SELECT grp, count(*) AS n, sum(val) AS s FROM t GROUP BY grp")
	// The first restart comes while the initial copy may still run (its
	// snapshot dies with it: a new slot is taken), the second in the
	// middle of the stream.
	srv.Restart(t)
	conn, err := pgx.Connect(t.Context(), connStr)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		exec(t, conn, fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d); UPDATE t SET val = val + 1 WHERE id %% 7 = %d", i, i%5, i, i%7))
	}
	waitApplied(t, e, conn, "s")
	for i := 50; i < 75; i++ {
		exec(t, conn, fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d); DELETE FROM t WHERE id = %d", i, i%5, i, i-40))
	}
	conn.Close(context.Background())
	srv.Restart(t)
	conn, err = pgx.Connect(t.Context(), connStr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for i := 75; i < 100; i++ {
		exec(t, conn, fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d); DELETE FROM t WHERE id = %d", i, i%5, i, i-40))
	}
	st := waitApplied(t, e, conn, "s")
	sameRows(t, e, conn, "SELECT * FROM v", "SELECT grp, count(*) AS n, sum(val) AS s FROM t GROUP BY grp")
	sameRows(t, e, conn, "SELECT * FROM t", "SELECT * FROM t")
	// Transactions committed before a retaken snapshot arrive in its copy.
	if st.txs > 100 || st.txs < 25 {
		t.Errorf("transactions applied: %d of 100 (%d rows copied)", st.txs, st.rowsCopied)
	}
	t.Logf("%d transactions streamed, %d rows copied", st.txs, st.rowsCopied)
	dv(t, e, "DROP SUBSCRIPTION s")
}
