package pgwire_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestPgxNestedTransactions uses pgx's nested transactions (Tx.Begin
// inside a transaction: SAVEPOINT, RELEASE SAVEPOINT and ROLLBACK TO
// SAVEPOINT): a nested rollback undoes its rows alone, a nested
// transaction recovers the outer one after an error, and the view sees
// the outer commit only. The outer transaction is BeginTx's, with an
// isolation level.
func TestPgxNestedTransactions(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c := connect(t, addr)
	mustExec(t, c, `CREATE TABLE t (id int PRIMARY KEY, v int)`)
	mustExec(t, c, `CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n, sum(v) AS total FROM t`)
	var pe *pgconn.PgError
	tx, err := c.BeginTx(ctx(t), pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		t.Fatal(err)
	}
	insert := func(q pgx.Tx, id int) error {
		_, err := q.Exec(ctx(t), `INSERT INTO t VALUES ($1, $2)`, id, id*10)
		return err
	}
	if err := insert(tx, 1); err != nil {
		t.Fatal(err)
	}
	// Rolled back: its row goes.
	n1, err := tx.Begin(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := insert(n1, 2); err != nil {
		t.Fatal(err)
	}
	if err := n1.Rollback(ctx(t)); err != nil {
		t.Fatal(err)
	}
	// Fails, then is rolled back: the outer transaction goes on.
	n2, err := tx.Begin(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := insert(n2, 3); err != nil {
		t.Fatal(err)
	}
	if err := insert(n2, 1); !errors.As(err, &pe) || pe.Code != "23505" {
		t.Fatalf("duplicate key: %v", err)
	}
	if st := c.PgConn().TxStatus(); st != 'E' {
		t.Fatalf("status after the error %c, want E", st)
	}
	if err := n2.Rollback(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if st := c.PgConn().TxStatus(); st != 'T' {
		t.Fatalf("status after ROLLBACK TO %c, want T", st)
	}
	// Committed: its row stays, inside a nested one rolled back.
	n3, err := tx.Begin(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := insert(n3, 4); err != nil {
		t.Fatal(err)
	}
	n4, err := n3.Begin(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := insert(n4, 5); err != nil {
		t.Fatal(err)
	}
	if err := n4.Rollback(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if err := n3.Commit(ctx(t)); err != nil {
		t.Fatal(err)
	}
	var n, total int64
	if err := c.QueryRow(ctx(t), `SELECT n, coalesce(total, 0) FROM s`).Scan(&n, &total); err != nil || n != 0 {
		t.Fatalf("the view before the commit: %d %d %v, want 0 0", n, total, err)
	}
	if err := tx.Commit(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, c); got != "1,4" {
		t.Fatalf("rows %s, want 1,4", got)
	}
	if err := c.QueryRow(ctx(t), `SELECT n, total FROM s`).Scan(&n, &total); err != nil || n != 2 || total != 50 {
		t.Fatalf("the view: %d %d %v, want 2 50", n, total, err)
	}
}

// TestSavepointExtended runs the savepoint statements through the
// extended protocol (Parse, Bind, Execute, Sync) and checks the outcome
// and the transaction status each ReadyForQuery reports, in deltaview and
// in PostgreSQL.
func TestSavepointExtended(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	conns := map[string]*pgx.Conn{"deltaview": connect(t, addr)}
	if _, err := pgtest.FindBinDir(); err == nil || os.Getenv("CI") == "true" {
		conns["PostgreSQL"] = pgtest.Start(t).Conn(t)
	}
	for name, c := range conns {
		t.Run(name, func(t *testing.T) { savepointSteps(t, c) })
	}
}

func savepointSteps(t *testing.T, c *pgx.Conn) {
	mustExec(t, c, `CREATE TABLE t (id int PRIMARY KEY, v int)`)
	pc := c.PgConn()
	for _, step := range []struct {
		sql    string
		code   string // the SQLSTATE of an error
		status byte
	}{
		{"SAVEPOINT a", "25P01", 'I'},
		{"BEGIN", "", 'T'},
		{"SAVEPOINT a", "", 'T'},
		{"INSERT INTO t VALUES (1, 1)", "", 'T'},
		{"SAVEPOINT b", "", 'T'},
		{"INSERT INTO t VALUES (1, 2)", "23505", 'E'},
		{"RELEASE SAVEPOINT b", "25P02", 'E'},
		{"ROLLBACK TO SAVEPOINT b", "", 'T'},
		{"INSERT INTO t VALUES (2, 2)", "", 'T'},
		{"ROLLBACK TO SAVEPOINT c", "3B001", 'E'},
		{"ROLLBACK TO SAVEPOINT a", "", 'T'},
		{"INSERT INTO t VALUES (3, 3)", "", 'T'},
		{"RELEASE SAVEPOINT a", "", 'T'},
		{"COMMIT", "", 'I'},
	} {
		res := pc.ExecParams(ctx(t), step.sql, nil, nil, nil, nil).Read()
		code := ""
		var pe *pgconn.PgError
		if errors.As(res.Err, &pe) {
			code = pe.Code
		} else if res.Err != nil {
			t.Fatalf("%s: %v", step.sql, res.Err)
		}
		if code != step.code || pc.TxStatus() != step.status {
			t.Fatalf("%s: error %q, status %c; want %q, %c", step.sql, code, pc.TxStatus(), step.code, step.status)
		}
	}
	if got := ids(t, c); got != "3" {
		t.Fatalf("rows %s, want 3", got)
	}
}

// ids returns the ids of t, in order, joined by commas.
func ids(t *testing.T, c *pgx.Conn) string {
	t.Helper()
	rows, err := c.Query(context.Background(), `SELECT id FROM t ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var id int
		err := r.Scan(&id)
		return fmt.Sprint(id), err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(got, ",")
}

// TestJDBCSavepoints runs testdata/drivers/JdbcSavepoints.java: the JDBC
// driver's Savepoint API and its autosave=always, which recovers a
// transaction from a failed statement with ROLLBACK TO. Under CI=true the
// JDK and the driver must be there, as for TestJDBC.
func TestJDBCSavepoints(t *testing.T) {
	const jar = "/usr/share/java/postgresql.jar"
	java, err := exec.LookPath("java")
	if err == nil {
		_, err = os.Stat(jar)
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no JDK or JDBC driver (default-jdk-headless, libpostgresql-jdbc-java): %v", err)
		}
		t.Skipf("no JDK or JDBC driver: %v", err)
	}
	addr := startServer(t, deltaview.Open())
	host, port, _ := net.SplitHostPort(addr)
	url := "jdbc:postgresql://" + host + ":" + port + "/deltaview?sslmode=disable"
	got := runClient(t, java, "-cp", jar, filepath.Join("testdata", "drivers", "JdbcSavepoints.java"), url)
	want := `error 23505
api rows 1 3 4 view 3 80
error 23505 on 1
error 23505 on 3
autosave rows 1 3 4 5 6 7 view 6 260
ok`
	if strings.TrimSpace(got) != want {
		t.Errorf("JDBC client printed\n%s\nwant\n%s", got, want)
	}
}
