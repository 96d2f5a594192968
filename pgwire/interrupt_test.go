package pgwire_test

import (
	"context"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/pgwire"
	"github.com/jackc/pgx/v5"
)

const interruptScript = `
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t SELECT g, g % 7 FROM generate_series(1, 20000) g;
CREATE MATERIALIZED VIEW per_v AS SELECT v, count(*) AS n, sum(id) AS s FROM t GROUP BY v;
`

// cancelled runs stmt on conn and sends cancel requests, one every 20ms,
// until the statement ends (a request that comes before it starts is
// forgotten, as in PostgreSQL); it returns the statement's SQLSTATE.
func cancelled(t *testing.T, conn *pgx.Conn, stmt string) string {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := conn.Exec(context.Background(), stmt)
		done <- err
	}()
	deadline := time.After(20 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return sqlstate(err)
		case <-tick.C:
			if err := conn.PgConn().CancelRequest(ctx(t)); err != nil {
				t.Fatal(err)
			}
		case <-deadline:
			t.Fatalf("%s: not cancelled within 20s", stmt)
		}
	}
}

// unchanged checks that t holds its rows of interruptScript and that the
// view per_v equals its query from scratch.
func unchanged(t *testing.T, conn *pgx.Conn, after string) {
	t.Helper()
	var n, sum int64
	if err := conn.QueryRow(ctx(t), `SELECT count(*), sum(v) FROM t`).Scan(&n, &sum); err != nil {
		t.Fatalf("after %s: %v", after, err)
	}
	if n != 20000 || sum != 59998 {
		t.Errorf("after %s: t has %d rows of sum %d, want 20000 and 59998", after, n, sum)
	}
	var diff int64
	if err := conn.QueryRow(ctx(t), `SELECT count(*) FROM ((TABLE per_v EXCEPT ALL SELECT v, count(*), sum(id) FROM t GROUP BY v)
		UNION ALL (SELECT v, count(*), sum(id) FROM t GROUP BY v EXCEPT ALL TABLE per_v)) d`).Scan(&diff); err != nil {
		t.Fatal(err)
	}
	if diff != 0 {
		t.Errorf("after %s: per_v differs from its query in %d rows", after, diff)
	}
}

// TestCancelLongStatements checks that a cancel request (psql's Ctrl-C)
// stops a PL/pgSQL loop, data changes and an ad-hoc join with 57014
// (testdata/statement_timeout.txt cancels a cold start), that each is undone entirely (the table and its view as
// before), and that in a transaction block the block is then aborted
// (25P02) until ROLLBACK.
func TestCancelLongStatements(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(interruptScript); err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, db)
	conn := connect(t, addr)
	for _, stmt := range []string{
		`DO $$ BEGIN LOOP END LOOP; END $$`,
		`DO $$ DECLARE i int := 100000; BEGIN LOOP i := i + 1; INSERT INTO t VALUES (i, 0); UPDATE t SET v = v + 1 WHERE id = i - 99999; END LOOP; END $$`,
		// Each row of t meets every row of the series, none matching.
		`UPDATE t SET v = t.v + 1 FROM generate_series(1, 100000) g WHERE g.g < 0`,
		`DELETE FROM t USING generate_series(1, 100000) g WHERE g.g < 0`,
		`INSERT INTO t SELECT a.id + 100000 * b.id, 0 FROM t a, t b`,
		`SELECT count(*) FROM t a, t b WHERE a.v + b.v < 0`,
	} {
		if code := cancelled(t, conn, stmt); code != "57014" {
			t.Errorf("%s: SQLSTATE %q, want 57014", stmt, code)
		}
		unchanged(t, conn, stmt)
	}

	mustExec(t, conn, `BEGIN`)
	mustExec(t, conn, `INSERT INTO t VALUES (-1, 1)`)
	if code := cancelled(t, conn, `DO $$ BEGIN LOOP UPDATE t SET v = v + 1 WHERE id = -1; END LOOP; END $$`); code != "57014" {
		t.Errorf("cancelled in a block: SQLSTATE %q", code)
	}
	if _, err := conn.Exec(ctx(t), `SELECT 1`); sqlstate(err) != "25P02" {
		t.Errorf("after a cancel in a block: %v, want 25P02", err)
	}
	mustExec(t, conn, `ROLLBACK`)
	unchanged(t, conn, "ROLLBACK")
}

// TestStatementTimeoutWire checks statement_timeout over the wire: a
// PL/pgSQL loop and a long data change end with 57014 at about their
// deadline, undone.
func TestStatementTimeoutWire(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(interruptScript); err != nil {
		t.Fatal(err)
	}
	conn := connect(t, startServer(t, db))
	mustExec(t, conn, `SET statement_timeout = '100ms'`)
	for _, stmt := range []string{
		`DO $$ BEGIN LOOP END LOOP; END $$`,
		`UPDATE t SET v = t.v + 1 FROM generate_series(1, 100000) g WHERE g.g < 0`,
		`INSERT INTO t SELECT a.id + 100000 * b.id, 0 FROM t a, t b`,
	} {
		start := time.Now()
		_, err := conn.Exec(ctx(t), stmt)
		if code := sqlstate(err); code != "57014" {
			t.Errorf("%s: %v, want 57014", stmt, err)
		}
		if el := time.Since(start); el > 10*time.Second {
			t.Errorf("%s: ended after %v", stmt, el)
		}
		mustExec(t, conn, `SET statement_timeout = 0`)
		unchanged(t, conn, stmt)
		mustExec(t, conn, `SET statement_timeout = '100ms'`)
	}
}

// TestWriterWaitInterrupted checks a wait for another transaction's right
// to write: pg_stat_activity shows it as a lock wait, lock_timeout ends
// it with 55P03, a cancel request with 57014.
func TestWriterWaitInterrupted(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(interruptScript); err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, db)
	holder, waiter := connect(t, addr), connect(t, addr)
	mustExec(t, holder, `BEGIN`)
	mustExec(t, holder, `UPDATE t SET v = v WHERE id = 1`)
	mustExec(t, waiter, `SET lock_timeout = '100ms'`)
	if _, err := waiter.Exec(ctx(t), `UPDATE t SET v = v + 1 WHERE id = 2`); sqlstate(err) != "55P03" {
		t.Errorf("lock_timeout: %v, want 55P03", err)
	}
	mustExec(t, waiter, `SET lock_timeout = 0`)
	pid := backendPID(t, waiter)
	done := make(chan string, 1)
	go func() {
		_, err := waiter.Exec(context.Background(), `UPDATE t SET v = v + 1 WHERE id = 2`)
		done <- sqlstate(err)
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var typ, event *string
		if err := holder.QueryRow(ctx(t), `SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE pid = $1`, pid).Scan(&typ, &event); err != nil {
			t.Fatal(err)
		}
		if typ != nil && *typ == "Lock" && event != nil && *event == "transactionid" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("pg_stat_activity does not show the wait")
		}
	}
	if err := waiter.PgConn().CancelRequest(ctx(t)); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != "57014" {
			t.Errorf("cancelled wait: SQLSTATE %q, want 57014", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancel did not end the wait")
	}
	mustExec(t, holder, `ROLLBACK`)
	unchanged(t, waiter, "the cancelled wait")
}

// TestSignalPermissions checks who may cancel or terminate whom, as in
// PostgreSQL: a role its own sessions, a superuser anyone; another
// role's session, or a superuser's, is refused with 42501. A terminated
// session's statement fails with 57P01 and its connection closes.
func TestSignalPermissions(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`
CREATE ROLE admin LOGIN SUPERUSER PASSWORD 'admin pw';
CREATE ROLE alice LOGIN PASSWORD 'alice pw';
CREATE ROLE bob LOGIN PASSWORD 'bob pw';
`); err != nil {
		t.Fatal(err)
	}
	addr := startServerWith(t, db, pgwire.Options{})
	as := func(user string) *pgx.Conn {
		c, err := connectAs(addr, user, user+" pw", "disable")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	admin, watch, alice, alice2, bob := as("admin"), as("admin"), as("alice"), as("alice"), as("bob")
	// sleeping runs a sleep on c and waits until pg_stat_activity shows it.
	sleeping := func(c *pgx.Conn) (int32, chan error) {
		pid := backendPID(t, c)
		done := make(chan error, 1)
		go func() {
			_, err := c.Exec(context.Background(), `SELECT pg_sleep(30)`)
			done <- err
		}()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			var state string
			if err := watch.QueryRow(ctx(t), `SELECT state FROM pg_stat_activity WHERE pid = $1`, pid).Scan(&state); err != nil {
				t.Fatal(err)
			}
			if state == "active" {
				return pid, done
			}
			if time.Now().After(deadline) {
				t.Fatal("the sleep does not show in pg_stat_activity")
			}
		}
	}
	signal := func(by *pgx.Conn, fn string, pid int32) (bool, string) {
		var ok bool
		err := by.QueryRow(ctx(t), `SELECT `+fn+`($1)`, pid).Scan(&ok)
		return ok, sqlstate(err)
	}
	ended := func(done chan error, want string) {
		t.Helper()
		select {
		case err := <-done:
			// pgx reports the FATAL 57P01 of a terminate as the
			// connection's end.
			if code := sqlstate(err); code != want && !(want == "57P01" && err != nil && alice.IsClosed()) {
				t.Errorf("signalled sleep: %v, want %s", err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the signal did not end the sleep")
		}
	}

	pid, done := sleeping(alice)
	if _, code := signal(bob, "pg_cancel_backend", pid); code != "42501" {
		t.Errorf("bob cancels alice: SQLSTATE %q, want 42501", code)
	}
	if _, code := signal(bob, "pg_terminate_backend", pid); code != "42501" {
		t.Errorf("bob terminates alice: SQLSTATE %q, want 42501", code)
	}
	if ok, code := signal(alice2, "pg_cancel_backend", pid); !ok || code != "" {
		t.Errorf("alice cancels alice: %v %q", ok, code)
	}
	ended(done, "57014")

	apid, adone := sleeping(admin)
	if _, code := signal(alice, "pg_cancel_backend", apid); code != "42501" {
		t.Errorf("alice cancels a superuser: SQLSTATE %q, want 42501", code)
	}
	if ok, code := signal(bob, "pg_cancel_backend", 999999); ok || code != "" {
		t.Errorf("no such process: %v %q, want false", ok, code)
	}
	if err := admin.PgConn().CancelRequest(ctx(t)); err != nil {
		t.Fatal(err)
	}
	ended(adone, "57014")

	pid, done = sleeping(alice)
	if ok, code := signal(admin, "pg_terminate_backend", pid); !ok || code != "" {
		t.Errorf("a superuser terminates alice: %v %q", ok, code)
	}
	ended(done, "57P01")
	select {
	case <-alice.PgConn().CleanupDone():
	case <-time.After(10 * time.Second):
		t.Error("a terminated connection stays open")
	}
	if _, err := alice.Exec(ctx(t), `SELECT 1`); err == nil {
		t.Error("a terminated connection still runs statements")
	}
}

// TestIdleInTransactionTimeout checks idle_in_transaction_session_timeout:
// a session idle inside a transaction block longer than it is ended with
// FATAL 25P03, its transaction rolled back; outside a block it waits.
func TestIdleInTransactionTimeout(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(interruptScript); err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, db)
	conn, watch := connect(t, addr), connect(t, addr)
	mustExec(t, conn, `SET idle_in_transaction_session_timeout = 100`)
	pid := backendPID(t, conn)
	mustExec(t, conn, `BEGIN`)
	mustExec(t, conn, `INSERT INTO t VALUES (-1, 1)`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var n int
		if err := watch.QueryRow(ctx(t), `SELECT count(*) FROM pg_stat_activity WHERE pid = $1`, pid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the session idle in its transaction was not ended")
		}
	}
	if _, err := conn.Exec(ctx(t), `SELECT 1`); err == nil {
		t.Error("the ended connection still runs statements")
	} else if code := sqlstate(err); code != "25P03" && !conn.IsClosed() {
		t.Errorf("after the timeout: %v, want 25P03", err)
	}
	unchanged(t, watch, "the timeout")
}
