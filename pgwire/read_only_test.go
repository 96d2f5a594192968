package pgwire_test

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
)

// TestPgxReadOnlyTransaction uses pgx's read-only transactions (BeginTx
// with AccessMode ReadOnly: BEGIN … READ ONLY) and the session default a
// JDBC driver's setReadOnly sends (SET SESSION CHARACTERISTICS AS
// TRANSACTION READ ONLY): reads run, a write is 25006 and fails the
// transaction, and the next read-write transaction writes.
func TestPgxReadOnlyTransaction(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c := connect(t, addr)
	mustExec(t, c, `CREATE TABLE t (id int PRIMARY KEY, v int)`)
	mustExec(t, c, `CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n FROM t`)
	mustExec(t, c, `INSERT INTO t VALUES (1, 10)`)

	tx, err := c.BeginTx(ctx(t), pgx.TxOptions{IsoLevel: pgx.Serializable, AccessMode: pgx.ReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	var ro string
	if err := tx.QueryRow(ctx(t), `SHOW transaction_read_only`).Scan(&ro); err != nil || ro != "on" {
		t.Fatalf("transaction_read_only %q, %v; want on", ro, err)
	}
	var n int64
	if err := tx.QueryRow(ctx(t), `SELECT n FROM s`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("SELECT n FROM s: %d, %v; want 1", n, err)
	}
	_, err = tx.Exec(ctx(t), `INSERT INTO t VALUES ($1, $2)`, 2, 20)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "25006" || pe.Message != "cannot execute INSERT in a read-only transaction" {
		t.Fatalf("INSERT in a read-only transaction: %v, want 25006", err)
	}
	if err := tx.Commit(ctx(t)); !errors.Is(err, pgx.ErrTxCommitRollback) {
		t.Fatalf("COMMIT of the failed transaction: %v, want a rollback", err)
	}

	// The session default, as JDBC's Connection.setReadOnly(true) sets it.
	mustExec(t, c, `SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY`)
	if _, err := c.Exec(ctx(t), `UPDATE t SET v = $1`, 11); !errors.As(err, &pe) || pe.Code != "25006" {
		t.Fatalf("UPDATE with default_transaction_read_only on: %v, want 25006", err)
	}
	mustExec(t, c, `SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE`)

	tx, err = c.BeginTx(ctx(t), pgx.TxOptions{AccessMode: pgx.ReadWrite})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx(t), `INSERT INTO t VALUES ($1, $2)`, 2, 20); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if err := c.QueryRow(ctx(t), `SELECT n FROM s`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("SELECT n FROM s after the commit: %d, %v; want 2", n, err)
	}
}
