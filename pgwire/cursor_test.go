package pgwire_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/pgwire"
)

// fetchRows runs a FETCH and returns its rows as "ts diff id s" strings,
// sorted within the batch.
func fetchRows(t *testing.T, c *pgx.Conn, q string, mode pgx.QueryExecMode) []string {
	t.Helper()
	rows, err := c.Query(ctx(t), q, mode)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for rows.Next() {
		var ts, diff int64
		var id int32
		var s *string
		if err := rows.Scan(&ts, &diff, &id, &s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		str := "NULL"
		if s != nil {
			str = *s
		}
		out = append(out, fmt.Sprintf("%d %d %d %s", ts, diff, id, str))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	slices.Sort(out)
	return out
}

// TestCursorSubscribe follows a view through DECLARE … CURSOR FOR
// SUBSCRIBE and FETCH, over both protocols: the snapshot first, then each
// commit's changes, a FETCH waiting for the next commit, a timeout that
// returns no row, and the cursor gone with its transaction.
func TestCursorSubscribe(t *testing.T) {
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		t.Run(mode.String(), func(t *testing.T) {
			addr := startServer(t, deltaview.Open())
			w, r := connect(t, addr), connect(t, addr)
			mustExec(t, w, `CREATE TABLE t (id int PRIMARY KEY, s text)`)
			mustExec(t, w, `INSERT INTO t VALUES (1, 'a'), (2, NULL), (30, 'out')`)
			mustExec(t, w, `CREATE MATERIALIZED VIEW v AS SELECT id, s FROM t WHERE id < 10`)

			_, err := r.Exec(ctx(t), `DECLARE c CURSOR FOR SUBSCRIBE v`)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "25P01" {
				t.Fatalf("DECLARE outside a transaction: %v, want 25P01", err)
			}
			mustExec(t, r, `BEGIN`)
			mustExec(t, r, `DECLARE c CURSOR FOR SUBSCRIBE v WITH (snapshot = true)`)
			snap := fetchRows(t, r, `FETCH ALL c`, mode)
			if len(snap) != 2 || !strings.HasSuffix(snap[0], " 1 1 a") || !strings.HasSuffix(snap[1], " 1 2 NULL") {
				t.Fatalf("snapshot: %q", snap)
			}
			var snapTS int64
			fmt.Sscan(snap[0], &snapTS)
			if snapTS <= 0 {
				t.Errorf("snapshot at ts %d", snapTS)
			}

			// Nothing committed: a FETCH with a timeout returns no row.
			start := time.Now()
			if got := fetchRows(t, r, `FETCH 10 c WITH (timeout = '200ms')`, mode); len(got) != 0 {
				t.Errorf("FETCH with nothing committed: %q", got)
			}
			if d := time.Since(start); d < 150*time.Millisecond || d > 5*time.Second {
				t.Errorf("FETCH with a 200ms timeout took %v", d)
			}

			// A FETCH without timeout waits for the next commit.
			updated := make(chan error, 1)
			go func() {
				time.Sleep(100 * time.Millisecond)
				_, err := w.Exec(context.Background(), `UPDATE t SET s = 'b' WHERE id = 1`)
				updated <- err
			}()
			got := fetchRows(t, r, `FETCH ALL FROM c`, mode)
			if err := <-updated; err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("after an update: %q", got)
			}
			var ts1 int64
			fmt.Sscan(got[0], &ts1)
			want := []string{fmt.Sprintf("%d -1 1 a", ts1), fmt.Sprintf("%d 1 1 b", ts1)}
			if !slices.Equal(got, want) || ts1 <= snapTS {
				t.Errorf("after an update: %q, want %q after ts %d", got, want, snapTS)
			}

			// FETCH n returns at most n; the rest waits for the next FETCH.
			mustExec(t, w, `INSERT INTO t VALUES (3, 'c'), (4, 'd'), (5, 'e')`)
			var n int
			for deadline := time.Now().Add(5 * time.Second); n < 3 && time.Now().Before(deadline); {
				got := fetchRows(t, r, `FETCH 2 IN c WITH (timeout = '1s')`, mode)
				if len(got) > 2 {
					t.Fatalf("FETCH 2 returned %d rows", len(got))
				}
				n += len(got)
			}
			if n != 3 {
				t.Errorf("fetched %d of 3 inserted rows", n)
			}

			// An unknown cursor fails the transaction; ROLLBACK closes c.
			_, err = r.Exec(ctx(t), `FETCH 1 nosuch`)
			if !errors.As(err, &pe) || pe.Code != "34000" {
				t.Errorf("FETCH of no cursor: %v, want 34000", err)
			}
			_, err = r.Exec(ctx(t), `FETCH 1 c WITH (timeout = '0s')`)
			if !errors.As(err, &pe) || pe.Code != "25P02" {
				t.Errorf("FETCH in a failed transaction: %v, want 25P02", err)
			}
			mustExec(t, r, `ROLLBACK`)
			mustExec(t, r, `BEGIN`)
			_, err = r.Exec(ctx(t), `FETCH 1 c WITH (timeout = '0s')`)
			if !errors.As(err, &pe) || pe.Code != "34000" {
				t.Errorf("FETCH after the transaction ended: %v, want 34000", err)
			}
			mustExec(t, r, `ROLLBACK`)

			// Without snapshot, then CLOSE; a query's cursor alongside.
			mustExec(t, r, `BEGIN`)
			mustExec(t, r, `DECLARE "C 2" CURSOR FOR SUBSCRIBE TO v`)
			mustExec(t, r, `DECLARE q NO SCROLL CURSOR WITHOUT HOLD FOR SELECT id, s FROM t WHERE id > 3 ORDER BY id`)
			if got := fetchRows(t, r, `FETCH ALL "C 2" WITH (timeout = '50ms')`, mode); len(got) != 0 {
				t.Errorf("a cursor without snapshot starts empty: %q", got)
			}
			mustExec(t, w, `DELETE FROM t WHERE id = 2`)
			if got := fetchRows(t, r, `FETCH ALL "C 2" WITH (timeout = '5s')`, mode); len(got) != 1 || !strings.HasSuffix(got[0], " -1 2 NULL") {
				t.Errorf("after a delete: %q", got)
			}
			var ids []int32
			for _, q := range []string{`FETCH 2 q`, `FETCH ALL q`, `FETCH q`} {
				rows, err := r.Query(ctx(t), q, mode)
				if err != nil {
					t.Fatal(err)
				}
				for rows.Next() {
					var id int32
					var s *string
					rows.Scan(&id, &s)
					ids = append(ids, id)
				}
				if err := rows.Err(); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if !slices.Equal(ids, []int32{4, 5, 30}) {
				t.Errorf("query cursor: %v", ids)
			}
			mustExec(t, r, `CLOSE "C 2"`)
			mustExec(t, r, `CLOSE q`)
			_, err = r.Exec(ctx(t), `CLOSE q`)
			if !errors.As(err, &pe) || pe.Code != "34000" {
				t.Errorf("CLOSE twice: %v, want 34000", err)
			}
			mustExec(t, r, `ROLLBACK`)
		})
	}
}

// TestCursorCancel cancels a FETCH that waits for a commit, and ends
// another at shutdown.
func TestCursorCancel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- pgwire.Serve(sctx, deltaview.Open(), ln, pgwire.Options{}) }()
	addr := ln.Addr().String()
	w, r := connect(t, addr), connect(t, addr)
	mustExec(t, w, `CREATE TABLE t (id int PRIMARY KEY)`)
	mustExec(t, w, `CREATE MATERIALIZED VIEW v AS SELECT id FROM t`)
	mustExec(t, r, `BEGIN`)
	mustExec(t, r, `DECLARE c CURSOR FOR SUBSCRIBE v`)
	go func() {
		time.Sleep(200 * time.Millisecond)
		r.PgConn().CancelRequest(context.Background())
	}()
	start := time.Now()
	_, err = r.Exec(ctx(t), `FETCH ALL c`)
	if err == nil || time.Since(start) > 10*time.Second {
		t.Fatalf("canceled FETCH: %v after %v", err, time.Since(start))
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" {
		t.Errorf("canceled FETCH: %v, want 57014", err)
	}
	mustExec(t, r, `ROLLBACK`)
	// At shutdown a waiting FETCH ends, and the server returns.
	mustExec(t, w, `BEGIN`)
	mustExec(t, w, `DECLARE c CURSOR FOR SUBSCRIBE v`)
	done := make(chan error, 1)
	go func() {
		_, err := w.Exec(context.Background(), `FETCH ALL c`)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	select {
	case err := <-done:
		if !errors.As(err, &pe) || pe.Code != "57P01" {
			t.Errorf("FETCH at shutdown: %v, want 57P01", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a waiting FETCH did not end at shutdown")
	}
}

// TestCopySubscribeInnerOptions takes SUBSCRIBE's options inside COPY's
// parentheses too: COPY (SUBSCRIBE v WITH (snapshot = true)) TO STDOUT.
func TestCopySubscribeInnerOptions(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	w, r := connect(t, addr), connect(t, addr)
	mustExec(t, w, `CREATE TABLE t (id int PRIMARY KEY)`)
	mustExec(t, w, `INSERT INTO t VALUES (7)`)
	mustExec(t, w, `CREATE MATERIALIZED VIEW v AS SELECT id FROM t`)
	lw := &lineWriter{lines: make(chan string, 10)}
	cctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := r.PgConn().CopyTo(cctx, lw, `COPY (SUBSCRIBE v WITH (snapshot = true)) TO STDOUT`)
		done <- err
	}()
	for _, want := range []string{"\t1\t7", "\t1\t8"} {
		select {
		case l := <-lw.lines:
			if !strings.HasSuffix(l, want) {
				t.Errorf("line %q, want one ending in %q", l, want)
			}
		case err := <-done:
			t.Fatalf("the stream ended: %v", err)
		case <-time.After(5 * time.Second):
			t.Fatalf("no line ending in %q", want)
		}
		if want == "\t1\t7" {
			mustExec(t, w, `INSERT INTO t VALUES (8)`)
		}
	}
	cancel()
	<-done
}

// TestCursorViewDropped: a cursor's changes fetched before its view was
// dropped still come, then FETCH fails with 42P01.
func TestCursorViewDropped(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	w, r := connect(t, addr), connect(t, addr)
	mustExec(t, w, `CREATE TABLE t (id int PRIMARY KEY, s text)`)
	mustExec(t, w, `CREATE MATERIALIZED VIEW v AS SELECT id, s FROM t`)
	mustExec(t, r, `BEGIN`)
	mustExec(t, r, `DECLARE c CURSOR FOR SUBSCRIBE v`)
	mustExec(t, w, `INSERT INTO t VALUES (1, 'a')`)
	mustExec(t, w, `DROP MATERIALIZED VIEW v`)
	got := fetchRows(t, r, `FETCH ALL c WITH (timeout = '5s')`, pgx.QueryExecModeSimpleProtocol)
	if len(got) != 1 || !strings.HasSuffix(got[0], " 1 1 a") {
		t.Errorf("before the drop: %q", got)
	}
	_, err := r.Exec(ctx(t), `FETCH ALL c WITH (timeout = '5s')`)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Errorf("FETCH after the drop: %v, want 42P01", err)
	}
	mustExec(t, r, `ROLLBACK`)
}

// TestCursorRedeclared prepares a FETCH for a cursor, then runs it for a
// cursor of the same name over a view of other columns: the server
// refuses rather than send rows of other types than described, and pgx
// then prepares the statement again.
func TestCursorRedeclared(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE t (id int PRIMARY KEY, s text)`)
	mustExec(t, c, `INSERT INTO t VALUES (1, 'a')`)
	mustExec(t, c, `CREATE MATERIALIZED VIEW v1 AS SELECT id, s FROM t`)
	mustExec(t, c, `CREATE MATERIALIZED VIEW v2 AS SELECT s, id::bigint * 2 AS d FROM t`)
	fetch := func() (string, error) {
		rows, err := c.Query(ctx(t), `FETCH ALL c`)
		if err != nil {
			return "", err
		}
		var out []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				return "", err
			}
			out = append(out, fmt.Sprint(vals[2:]...))
		}
		return strings.Join(out, "|"), rows.Err()
	}
	mustExec(t, c, `BEGIN`)
	mustExec(t, c, `DECLARE c CURSOR FOR SUBSCRIBE v1 WITH (snapshot = true)`)
	if got, err := fetch(); err != nil || got != "1a" {
		t.Fatalf("v1: %q %v", got, err)
	}
	mustExec(t, c, `COMMIT`)
	mustExec(t, c, `BEGIN`)
	mustExec(t, c, `DECLARE c CURSOR FOR SUBSCRIBE v2 WITH (snapshot = true)`)
	got, err := fetch()
	if err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "0A000" {
			t.Fatalf("v2: %v, want 0A000", err)
		}
		mustExec(t, c, `ROLLBACK`)
		mustExec(t, c, `BEGIN`)
		mustExec(t, c, `DECLARE c CURSOR FOR SUBSCRIBE v2 WITH (snapshot = true)`)
		got, err = fetch()
	}
	if err != nil || got != "a2" {
		t.Errorf("v2: %q %v, want a2", got, err)
	}
	mustExec(t, c, `COMMIT`)
}
