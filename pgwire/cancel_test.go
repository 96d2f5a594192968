package pgwire_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestCancelRequest checks that the process id a client gets at startup
// is its session's pg_backend_pid(), and that a cancel request with it
// cancels the running statement (57014), as in PostgreSQL, leaving the
// connection usable; a cancel that finds the session idle is forgotten.
func TestCancelRequest(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	conn := connect(t, addr)
	if pid := backendPID(t, conn); uint32(pid) != conn.PgConn().PID() {
		t.Fatalf("pg_backend_pid() = %d, BackendKeyData's process id %d", pid, conn.PgConn().PID())
	}
	// Idle: forgotten.
	if err := conn.PgConn().CancelRequest(ctx(t)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	mustExec(t, conn, `SELECT 1`)

	done := make(chan error, 1)
	go func() {
		time.Sleep(200 * time.Millisecond) // the statement runs
		done <- conn.PgConn().CancelRequest(context.Background())
	}()
	start := time.Now()
	_, err := conn.Exec(ctx(t), `SELECT pg_sleep(20)`)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("SELECT pg_sleep(20) cancelled: %v, want 57014", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("the cancel took %v", el)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mustExec(t, conn, `SELECT 1`)
}
