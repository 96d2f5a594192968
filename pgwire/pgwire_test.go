package pgwire_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/pgwire"
)

// startServer serves db on a loopback port until the test ends, and
// checks that Serve then returns nil.
func startServer(t *testing.T, db *deltaview.DB) string {
	t.Helper()
	return startServerWith(t, db, pgwire.Options{})
}

func connString(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	return fmt.Sprintf("host=%s port=%s user=deltaview dbname=deltaview sslmode=disable connect_timeout=5", host, port)
}

func connect(t *testing.T, addr string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func mustExec(t *testing.T, c *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := c.Exec(ctx(t), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// TestPsql runs the scripts of testdata/psql through psql against a
// server of a new database per file, and compares psql's output.
func TestPsql(t *testing.T) {
	psql := pgtest.Psql(t)
	datadriven.Walk(t, "testdata/psql", func(t *testing.T, path string) {
		addr := startServer(t, deltaview.Open())
		host, port, _ := net.SplitHostPort(addr)
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "psql" {
				t.Fatalf("unknown command %q", d.Cmd)
			}
			c, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(c, psql, "-X", "-h", host, "-p", port, "-U", "deltaview", "-d", "deltaview", "-v", "VERBOSITY=default")
			cmd.Stdin = strings.NewReader(d.Input)
			cmd.Env = append(cmd.Environ(), "PGCONNECT_TIMEOUT=5", "PGCLIENTENCODING=UTF8")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(&out, "psql: %v\n", err)
			}
			return out.String()
		})
	})
}

// TestPgxTypes writes every supported type through pgx's extended
// protocol (binary parameters and results) and reads it back through both
// protocols.
func TestPgxTypes(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE ty (i2 smallint, i4 int, i8 bigint, f4 real, f8 double precision,
		n numeric(10,3), b bool, t text, v varchar(10), ch char(3), d date, ts timestamp, tz timestamptz)`)
	ts := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	d := time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC)
	mustExec(t, c, `INSERT INTO ty VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		int16(-2), int32(40000), int64(1)<<40, float32(1.5), 2.25, "-12.345", true, "ann", "bob", "cy", d, ts, ts)
	mustExec(t, c, `INSERT INTO ty VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		rows, err := c.Query(ctx(t), `SELECT i2, i4, i8, f4, f8, n::text, b, t, v, ch, d, ts, tz FROM ty ORDER BY i2 NULLS LAST`, mode)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprint(vals...))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		want := []string{
			fmt.Sprint(int16(-2), int32(40000), int64(1)<<40, float32(1.5), 2.25, "-12.345", true, "ann", "bob", "cy ", d, ts, ts),
			fmt.Sprint(nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil),
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("mode %v:\ngot  %q\nwant %q", mode, got, want)
		}
	}
	// A numeric read in binary.
	var n float64
	if err := c.QueryRow(ctx(t), `SELECT n FROM ty WHERE i4 = $1`, 40000).Scan(&n); err != nil || n != -12.345 {
		t.Errorf("numeric in binary: %v, %v", n, err)
	}
	// Parameter types come from the binder's deduction.
	sd, err := c.Prepare(ctx(t), "upd", `UPDATE ty SET t = $2 WHERE i8 = $1 RETURNING ts, n`)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(sd.ParamOIDs, len(sd.Fields)); got != "[20 25] 2" {
		t.Errorf("parameter OIDs and result columns: %s", got)
	}
	var back time.Time
	var nn string
	if err := c.QueryRow(ctx(t), "upd", int64(1)<<40, "zed").Scan(&back, &nn); err != nil || !back.Equal(ts) || nn != "-12.345" {
		t.Errorf("UPDATE … RETURNING: %v %v %v", back, nn, err)
	}
}

// TestPgxErrors checks that errors carry SQLSTATE, position and hint, and
// that a failed transaction is reported as such until it ends.
func TestPgxErrors(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE t (id int PRIMARY KEY, v text)`)
	pgErr := func(err error) *pgconn.PgError {
		t.Helper()
		var pe *pgconn.PgError
		if !errors.As(err, &pe) {
			t.Fatalf("want a server error, got %v", err)
		}
		return pe
	}
	_, err := c.Exec(ctx(t), `SELECT nosuch FROM t`)
	if pe := pgErr(err); pe.Code != "42703" || pe.Position != 8 {
		t.Errorf("undefined column: %s at %d: %s", pe.Code, pe.Position, pe.Message)
	}
	// The position is in the whole query string of a simple query.
	_, err = c.Exec(ctx(t), `SELECT 1; SELECT nosuch FROM t`, pgx.QueryExecModeSimpleProtocol)
	if pe := pgErr(err); pe.Code != "42703" || pe.Position != 18 {
		t.Errorf("undefined column in a second statement: %s at %d", pe.Code, pe.Position)
	}
	mustExec(t, c, `INSERT INTO t VALUES ($1, $2)`, 1, "a")
	_, err = c.Exec(ctx(t), `INSERT INTO t VALUES ($1, $2)`, 1, "b")
	if pe := pgErr(err); pe.Code != "23505" {
		t.Errorf("duplicate key: %s %s", pe.Code, pe.Message)
	}
	tx, err := c.Begin(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.Exec(ctx(t), `SELECT 1/0`)
	if pe := pgErr(err); pe.Code != "22012" {
		t.Errorf("division by zero: %s", pe.Code)
	}
	if st := c.PgConn().TxStatus(); st != 'E' {
		t.Errorf("transaction status after an error: %c, want E", st)
	}
	_, err = tx.Exec(ctx(t), `SELECT 1`)
	if pe := pgErr(err); pe.Code != "25P02" {
		t.Errorf("in a failed transaction: %s", pe.Code)
	}
	if err := tx.Rollback(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if st := c.PgConn().TxStatus(); st != 'I' {
		t.Errorf("transaction status after ROLLBACK: %c, want I", st)
	}
	_, err = c.Exec(ctx(t), `UPDATE t SET v = $1 WHERE id = $2`, "x", "not a number")
	if pe := pgErr(err); pe.Code != "22P02" {
		t.Errorf("a parameter that is not of its type: %s %s", pe.Code, pe.Message)
	}
	_, err = c.Exec(ctx(t), `SET lock_timeout = 'soon'`)
	if pe := pgErr(err); pe.Code != "22023" || pe.Hint == "" {
		t.Errorf("a hint: %s %q", pe.Code, pe.Hint)
	}
	// The connection still works.
	var n int
	if err := c.QueryRow(ctx(t), `SELECT count(*) FROM t`).Scan(&n); err != nil || n != 1 {
		t.Errorf("count after errors: %d %v", n, err)
	}
}

// TestPgxTwoTransactions runs a transaction on each of two connections:
// a reader never sees the other's uncommitted rows, the second writer
// waits for the first, and the first's rollback keeps the second's rows.
func TestPgxTwoTransactions(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	a, b := connect(t, addr), connect(t, addr)
	mustExec(t, a, `CREATE TABLE t (id int PRIMARY KEY, who text)`)
	mustExec(t, a, `CREATE MATERIALIZED VIEW per AS SELECT who, count(*) AS n FROM t GROUP BY who`)
	mustExec(t, a, `BEGIN`)
	mustExec(t, a, `INSERT INTO t VALUES (1, 'a'), (2, 'a')`)
	var n int
	if err := b.QueryRow(ctx(t), `SELECT count(*) FROM t`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("b sees %d rows of a's open transaction (%v)", n, err)
	}
	mustExec(t, b, `BEGIN`)
	done := make(chan error, 1)
	go func() {
		_, err := b.Exec(context.Background(), `INSERT INTO t VALUES (3, 'b')`)
		if err == nil {
			_, err = b.Exec(context.Background(), `COMMIT`)
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("b's write did not wait for a's transaction: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	mustExec(t, a, `ROLLBACK`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rows, err := a.Query(ctx(t), `SELECT who, n FROM per ORDER BY who`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var who string
		var n int64
		err := r.Scan(&who, &n)
		return fmt.Sprintf("%s:%d", who, n), err
	})
	if err != nil || strings.Join(got, ",") != "b:1" {
		t.Errorf("view after a's rollback and b's commit: %v %v", got, err)
	}
}

// TestShutdown ends the server while a client holds a transaction open:
// the client gets 57P01, its transaction rolls back, Serve returns.
func TestShutdown(t *testing.T) {
	db := deltaview.Open()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- pgwire.Serve(sctx, db, ln, pgwire.Options{}) }()
	c := connect(t, ln.Addr().String())
	mustExec(t, c, `CREATE TABLE t (id int)`)
	mustExec(t, c, `BEGIN`)
	mustExec(t, c, `INSERT INTO t VALUES (1)`)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	_, err = c.Exec(ctx(t), `COMMIT`)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57P01" {
		t.Errorf("COMMIT after shutdown: %v, want 57P01", err)
	}
	rows, err := db.Query(`SELECT count(*) FROM t`)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows.Rows); got != "[[0]]" {
		t.Errorf("rows after shutdown: %s, want the transaction rolled back", got)
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("the server still accepts connections")
	}
}

// TestStartupRefusals checks the refusals of an unknown role or database.
func TestStartupRefusals(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	host, port, _ := net.SplitHostPort(addr)
	for _, tc := range []struct{ user, db, code string }{
		{"postgres", "deltaview", "28000"},
		{"deltaview", "postgres", "3D000"},
	} {
		_, err := pgx.Connect(ctx(t), fmt.Sprintf("host=%s port=%s user=%s dbname=%s sslmode=disable", host, port, tc.user, tc.db))
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != tc.code {
			t.Errorf("user %s database %s: %v, want %s", tc.user, tc.db, err, tc.code)
		}
	}
}

// lineWriter passes each line written to it to a channel.
type lineWriter struct {
	lines chan string
	buf   []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.lines <- string(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
}

// TestCopySubscribe follows a view with COPY (SUBSCRIBE v) TO STDOUT:
// the snapshot, then each commit's changes as it lands, until the client
// cancels; dropping the view ends another stream with 42P01.
func TestCopySubscribe(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	w, r := connect(t, addr), connect(t, addr)
	mustExec(t, w, `CREATE TABLE t (id int PRIMARY KEY, s text)`)
	mustExec(t, w, `INSERT INTO t VALUES (1, E'tab\there')`)
	mustExec(t, w, `CREATE MATERIALIZED VIEW v AS SELECT id, s FROM t WHERE id < 10`)

	lw := &lineWriter{lines: make(chan string, 100)}
	cctx, cancel := context.WithCancel(context.Background())
	copyDone := make(chan error, 1)
	go func() {
		_, err := r.PgConn().CopyTo(cctx, lw, `COPY (SUBSCRIBE v) TO STDOUT WITH (snapshot = true)`)
		copyDone <- err
	}()
	next := func(want string) {
		t.Helper()
		select {
		case got := <-lw.lines:
			if got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		case err := <-copyDone:
			t.Fatalf("the stream ended: %v", err)
		case <-time.After(5 * time.Second):
			t.Fatalf("no line %q within 5s", want)
		}
	}
	next("1\t1\t1\ttab\\there")
	mustExec(t, w, `INSERT INTO t VALUES (2, NULL), (20, 'out')`)
	next("2\t1\t2\t\\N")
	mustExec(t, w, `UPDATE t SET s = 'x' WHERE id = 1`)
	got := []string{<-lw.lines, <-lw.lines}
	if strings.Join(got, "|") != "3\t-1\t1\ttab\\there|3\t1\t1\tx" && strings.Join(got, "|") != "3\t1\t1\tx|3\t-1\t1\ttab\\there" {
		t.Errorf("update: %q", got)
	}
	cancel() // pgconn sends a cancel request
	select {
	case err := <-copyDone:
		if err == nil {
			t.Error("the canceled stream ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end after the cancel request")
	}

	// Another connection's stream ends with 42P01 when the view is dropped.
	r2 := connect(t, addr)
	lw = &lineWriter{lines: make(chan string, 10)}
	go func() {
		_, err := r2.PgConn().CopyTo(context.Background(), lw, `COPY (SUBSCRIBE v) TO STDOUT`)
		copyDone <- err
	}()
	// A row through the stream says it is registered; no snapshot before.
	for i := 3; ; i++ {
		mustExec(t, w, `INSERT INTO t VALUES ($1, 'y')`, i)
		select {
		case l := <-lw.lines:
			if !strings.HasSuffix(l, fmt.Sprintf("\t1\t%d\ty", i)) {
				t.Fatalf("first line of a stream without snapshot: %q", l)
			}
		case <-time.After(50 * time.Millisecond):
			continue
		}
		break
	}
	mustExec(t, w, `DROP MATERIALIZED VIEW v`)
	select {
	case err := <-copyDone:
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "42P01" {
			t.Errorf("stream of a dropped view: %v, want 42P01", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end when its view was dropped")
	}
	// The connection goes on.
	var n int
	if err := r2.QueryRow(ctx(t), `SELECT count(*) FROM t WHERE id < 3`).Scan(&n); err != nil || n != 2 {
		t.Errorf("after the stream: %d %v", n, err)
	}
	_, err := r2.PgConn().CopyTo(ctx(t), &lineWriter{lines: make(chan string, 10)}, `COPY (SUBSCRIBE nosuch) TO STDOUT`)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Errorf("stream of no view: %v", err)
	}
}

// TestMalformedMessages sends bytes that are no protocol message, and a
// message longer than the limit: each connection ends with FATAL 08P01,
// and the server goes on serving others.
func TestMalformedMessages(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	other := connect(t, addr)
	for name, raw := range map[string][]byte{
		"unknown type":    {'!', 0, 0, 0, 8, 1, 2, 3, 4},
		"negative length": {'Q', 0xff, 0xff, 0xff, 0xf0},
		"oversized":       {'Q', 0x7f, 0, 0, 0},
	} {
		nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		fe := pgproto3.NewFrontend(nc, nc)
		fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
			Parameters: map[string]string{"user": "deltaview", "database": "deltaview"}})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		for {
			msg, err := fe.Receive()
			if err != nil {
				t.Fatalf("%s: startup: %v", name, err)
			}
			if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
				break
			}
		}
		if _, err := nc.Write(raw); err != nil {
			t.Fatal(err)
		}
		msg, err := fe.Receive()
		if e, ok := msg.(*pgproto3.ErrorResponse); !ok || e.Code != "08P01" || e.Severity != "FATAL" {
			t.Errorf("%s: %#v %v, want FATAL 08P01", name, msg, err)
		}
		if _, err := fe.Receive(); err == nil {
			t.Errorf("%s: the connection is still open", name)
		}
		nc.Close()
	}
	var n int
	if err := other.QueryRow(ctx(t), `SELECT 1`).Scan(&n); err != nil || n != 1 {
		t.Errorf("another connection after malformed messages: %v", err)
	}
}

// TestResultTypeChanged drops and creates again a table a cached statement
// reads: the statement fails with PostgreSQL's error, on which pgx
// prepares it again.
func TestResultTypeChanged(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE t (a int)`)
	mustExec(t, c, `INSERT INTO t VALUES (1)`)
	var n int
	if err := c.QueryRow(ctx(t), `SELECT * FROM t WHERE a = $1`, 1).Scan(&n); err != nil {
		t.Fatal(err)
	}
	mustExec(t, c, `DROP TABLE t`)
	mustExec(t, c, `CREATE TABLE t (a int, b text)`)
	mustExec(t, c, `INSERT INTO t VALUES (1, 'x')`)
	var s string
	err := c.QueryRow(ctx(t), `SELECT * FROM t WHERE a = $1`, 1).Scan(&n, &s)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "0A000" {
		t.Fatalf("a cached statement whose columns changed: %v", err)
	}
	if err := c.QueryRow(ctx(t), `SELECT * FROM t WHERE a = $1`, 1).Scan(&n, &s); err != nil || s != "x" {
		t.Errorf("prepared again: %q %v", s, err)
	}
}

// TestConcurrentClients runs writers (each transaction committed or
// rolled back), readers and a streaming subscriber on connections of
// their own: at the end the view holds exactly the committed rows, and
// the subscriber's summed deltas equal the view.
func TestConcurrentClients(t *testing.T) {
	const writers, txs = 6, 30
	addr := startServer(t, deltaview.Open())
	setup := connect(t, addr)
	mustExec(t, setup, `CREATE TABLE t (w int, i int, PRIMARY KEY (w, i))`)
	mustExec(t, setup, `CREATE MATERIALIZED VIEW per AS SELECT w, count(*) AS n FROM t GROUP BY w`)

	sub := connect(t, addr)
	lw := &lineWriter{lines: make(chan string, 10000)}
	subCtx, stopSub := context.WithCancel(context.Background())
	subDone := make(chan error, 1)
	go func() {
		_, err := sub.PgConn().CopyTo(subCtx, lw, `COPY (SUBSCRIBE per) TO STDOUT WITH (snapshot)`)
		subDone <- err
	}()

	errs := make(chan error, writers+2)
	stopReaders := make(chan struct{})
	for range 2 {
		r := connect(t, addr)
		go func() {
			for {
				select {
				case <-stopReaders:
					errs <- nil
					return
				default:
				}
				var n int64
				if err := r.QueryRow(context.Background(), `SELECT coalesce(sum(n), 0) FROM per`).Scan(&n); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	committed := make([]int, writers)
	for w := range writers {
		c := connect(t, addr)
		go func() {
			for i := range txs {
				ctx := context.Background()
				tx, err := c.Begin(ctx)
				if err == nil {
					_, err = tx.Exec(ctx, `INSERT INTO t VALUES ($1, $2), ($1, $3)`, w, 2*i, 2*i+1)
				}
				if err == nil && i%4 == 3 {
					err = tx.Rollback(ctx)
				} else if err == nil {
					if err = tx.Commit(ctx); err == nil {
						committed[w] += 2
					}
				}
				if err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(stopReaders)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	want := map[int]int{}
	var total int
	for w, n := range committed {
		want[w] = n
		total += n
	}
	rows, err := setup.Query(ctx(t), `SELECT w, n FROM per`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]int{}
	for rows.Next() {
		var w, n int
		if err := rows.Scan(&w, &n); err != nil {
			t.Fatal(err)
		}
		got[w] = n
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("view: %v, want the committed rows %v", got, want)
	}
	// The subscriber's deltas, summed, equal the view: wait until the
	// last commit's delta has arrived.
	summed := map[string]int64{}
	deadline := time.After(10 * time.Second)
	for fmt.Sprint(viewOf(summed)) != fmt.Sprint(want) {
		select {
		case l := <-lw.lines:
			var ts, diff, w, n int64
			if _, err := fmt.Sscanf(l, "%d\t%d\t%d\t%d", &ts, &diff, &w, &n); err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
			summed[fmt.Sprintf("%d %d", w, n)] += diff
		case err := <-subDone:
			t.Fatalf("the subscriber's stream ended: %v", err)
		case <-deadline:
			t.Fatalf("summed deltas %v, want %v", viewOf(summed), want)
		}
	}
	stopSub()
	<-subDone
}

// viewOf returns the rows "w n" of weight 1 in summed as a map w → n.
func viewOf(summed map[string]int64) map[int]int {
	out := map[int]int{}
	for k, d := range summed {
		if d == 0 {
			continue
		}
		var w, n int
		fmt.Sscanf(k, "%d %d", &w, &n)
		out[w] = n
		if d != 1 {
			out[-1] = int(d) // a weight other than 1 shows as a wrong row
		}
	}
	return out
}

// TestResultTypeChangedDML checks that a cached INSERT … RETURNING whose
// columns changed is refused before it changes anything.
func TestResultTypeChangedDML(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE t (a int)`)
	const ins = `INSERT INTO t VALUES ($1) RETURNING *`
	var n int
	if err := c.QueryRow(ctx(t), ins, 1).Scan(&n); err != nil {
		t.Fatal(err)
	}
	mustExec(t, c, `DROP TABLE t`)
	mustExec(t, c, `CREATE TABLE t (a int, b text)`)
	var s *string
	err := c.QueryRow(ctx(t), ins, 2).Scan(&n, &s)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "0A000" {
		t.Fatalf("a cached INSERT whose columns changed: %v", err)
	}
	if err := c.QueryRow(ctx(t), `SELECT count(*) FROM t`).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows after the refused INSERT: %d %v", n, err)
	}
}

// TestUnnamedPortalRebound binds the unnamed portal again and again, as
// drivers do for each execution, to statements of other parameters and
// result formats: each execution has its own arguments and formats, and
// after a Bind that fails there is no unnamed portal, as in PostgreSQL.
func TestUnnamedPortalRebound(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	// exchange sends msgs and a Sync, and returns what the server answered
	// up to ReadyForQuery, as text.
	exchange := func(msgs ...pgproto3.FrontendMessage) []string {
		t.Helper()
		for _, m := range msgs {
			fe.Send(m)
		}
		fe.Send(&pgproto3.Sync{})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			msg, err := fe.Receive()
			if err != nil {
				t.Fatal(err)
			}
			switch m := msg.(type) {
			case *pgproto3.ReadyForQuery:
				return got
			case *pgproto3.DataRow:
				got = append(got, fmt.Sprintf("row %x", m.Values))
			case *pgproto3.CommandComplete:
				got = append(got, string(m.CommandTag))
			case *pgproto3.ErrorResponse:
				got = append(got, "error "+m.Code)
			}
		}
	}
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "deltaview", "database": "deltaview"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	exchange(&pgproto3.Parse{Name: "a", Query: `SELECT $1::int + 1 AS x, $2::int AS y`},
		&pgproto3.Parse{Name: "b", Query: `SELECT $1::text || 'z' AS s`})
	for _, c := range []struct {
		msgs []pgproto3.FrontendMessage
		want string
	}{
		{[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "a", Parameters: [][]byte{[]byte("41"), []byte("7")},
			ResultFormatCodes: []int16{1}}, &pgproto3.Execute{}},
			"[row [0000002a 00000007] SELECT 1]"},
		{[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "b", Parameters: [][]byte{[]byte("a")}}, &pgproto3.Execute{}},
			"[row [617a] SELECT 1]"},
		{[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "a", Parameters: [][]byte{[]byte("1"), []byte("2")},
			ResultFormatCodes: []int16{0, 1}}, &pgproto3.Execute{}},
			"[row [32 00000002] SELECT 1]"},
		{[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "a", Parameters: [][]byte{[]byte("1"), []byte("2")},
			ResultFormatCodes: []int16{7}}},
			"[error 08P01]"},
		{[]pgproto3.FrontendMessage{&pgproto3.Execute{}}, "[error 34000]"},
	} {
		if got := fmt.Sprint(exchange(c.msgs...)); got != c.want {
			t.Errorf("%#v: %s, want %s", c.msgs[0], got, c.want)
		}
	}
}
