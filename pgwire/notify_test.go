package pgwire_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// received returns the notifications conn has already received, without
// reading the connection (an expired context stops pgx from reading).
func received(conn *pgx.Conn) []string {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	var out []string
	for {
		n, err := conn.WaitForNotification(done)
		if err != nil || n == nil {
			return out
		}
		out = append(out, fmt.Sprintf("%s:%s:%d", n.Channel, n.Payload, n.PID))
	}
}

// wait returns the next notification, waiting at most d; "" when none
// came.
func wait(t *testing.T, conn *pgx.Conn, d time.Duration) string {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	n, err := conn.WaitForNotification(c)
	if err != nil {
		if c.Err() != nil {
			return ""
		}
		t.Fatalf("WaitForNotification: %v", err)
	}
	return fmt.Sprintf("%s:%s:%d", n.Channel, n.Payload, n.PID)
}

func backendPID(t *testing.T, conn *pgx.Conn) int32 {
	t.Helper()
	var pid int32
	if err := conn.QueryRow(ctx(t), `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestPgxNotifications listens with pgx's WaitForNotification: a
// notification reaches a listener that waits idle as soon as its sender
// commits, with the sender's pg_backend_pid(); one transaction's
// duplicates are folded, its order kept, a rollback sends nothing; a
// listener inside a transaction receives at its end, its own
// notifications too; both protocols send; UNLISTEN stops them.
func TestPgxNotifications(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	lis, snd := connect(t, addr), connect(t, addr)
	lpid, spid := backendPID(t, lis), backendPID(t, snd)
	if lpid == spid || lpid <= 0 || spid <= 0 {
		t.Fatalf("pids %d and %d", lpid, spid)
	}
	mustExec(t, lis, `LISTEN jobs`)
	mustExec(t, lis, `LISTEN "Other"`)
	var chans []string
	rows, _ := lis.Query(ctx(t), `SELECT * FROM pg_listening_channels()`)
	chans, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || !slices.Equal(chans, []string{"jobs", "Other"}) {
		t.Fatalf("pg_listening_channels() = %v, %v", chans, err)
	}

	// Sent while the listener waits, idle.
	got := make(chan string, 1)
	go func() {
		c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		n, err := lis.WaitForNotification(c)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- fmt.Sprintf("%s:%s:%d", n.Channel, n.Payload, n.PID)
	}()
	time.Sleep(50 * time.Millisecond) // the listener waits on its socket
	mustExec(t, snd, `NOTIFY jobs, 'first'`)
	if g, w := <-got, fmt.Sprintf("jobs:first:%d", spid); g != w {
		t.Fatalf("idle listener got %q, want %q", g, w)
	}

	// A transaction: duplicates fold, order stays; a rollback sends none.
	for _, end := range []string{"ROLLBACK", "COMMIT"} {
		mustExec(t, snd, `BEGIN`)
		mustExec(t, snd, `NOTIFY jobs, 'a'`)
		mustExec(t, snd, `NOTIFY "Other"`)
		mustExec(t, snd, `NOTIFY jobs, 'a'`)
		mustExec(t, snd, `SELECT pg_notify('jobs', 'b')`)
		mustExec(t, snd, `SELECT pg_notify($1, $2)`, "jobs", "a") // the extended protocol
		mustExec(t, snd, `NOTIFY nobody, 'x'`)
		mustExec(t, snd, end)
	}
	want := []string{fmt.Sprintf("jobs:a:%d", spid), fmt.Sprintf("Other::%d", spid), fmt.Sprintf("jobs:b:%d", spid)}
	var all []string
	for range want {
		all = append(all, wait(t, lis, 10*time.Second))
	}
	if !slices.Equal(all, want) {
		t.Fatalf("after ROLLBACK and COMMIT got %q, want %q", all, want)
	}
	if n := wait(t, lis, 200*time.Millisecond); n != "" {
		t.Fatalf("one more notification: %q", n)
	}

	// Inside its transaction the listener receives nothing; at its end,
	// everything, its own notification too, before ReadyForQuery.
	mustExec(t, lis, `BEGIN`)
	mustExec(t, snd, `NOTIFY jobs, 'during'`)
	mustExec(t, lis, `SELECT 1`)
	mustExec(t, lis, `NOTIFY jobs, 'mine'`)
	mustExec(t, lis, `SELECT 2`)
	if r := received(lis); len(r) > 0 {
		t.Fatalf("received inside a transaction: %q", r)
	}
	mustExec(t, lis, `COMMIT`)
	if r, w := received(lis), []string{fmt.Sprintf("jobs:during:%d", spid), fmt.Sprintf("jobs:mine:%d", lpid)}; !slices.Equal(r, w) {
		t.Fatalf("at COMMIT received %q, want %q", r, w)
	}

	// UNLISTEN: nothing more comes.
	mustExec(t, lis, `UNLISTEN *`)
	mustExec(t, snd, `NOTIFY jobs, 'late'`)
	if n := wait(t, lis, 200*time.Millisecond); n != "" {
		t.Fatalf("after UNLISTEN *: %q", n)
	}
	var usage float64
	if err := snd.QueryRow(ctx(t), `SELECT pg_notification_queue_usage()`).Scan(&usage); err != nil || usage != 0 {
		t.Fatalf("pg_notification_queue_usage() = %v, %v", usage, err)
	}
}
