package deltaview_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// TestWaitForNotification receives notifications through the Go API: a
// session that listens waits for the next one, which another session's
// commit sends (in commit order, duplicates of one transaction folded,
// none from a rollback, a savepoint's undone); a session that listens on
// nothing, or is inside a transaction block, gets an error at once, and a
// wait ends with its context.
func TestWaitForNotification(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	lis, snd := db.Session(), db.Session()
	defer lis.Close()
	defer snd.Close()

	if _, err := lis.WaitForNotification(context.Background()); deltaview.Code(err) != "55000" {
		t.Fatalf("waiting without LISTEN: %v, want 55000", err)
	}
	if err := lis.Exec(`LISTEN jobs`); err != nil {
		t.Fatal(err)
	}
	rows, err := snd.Query(`SELECT pg_backend_pid()`)
	if err != nil {
		t.Fatal(err)
	}
	spid := int32(rows.Rows[0][0].Int())

	// A wait that a commit ends.
	got := make(chan deltaview.Notification, 1)
	errc := make(chan error, 1)
	go func() {
		c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		n, err := lis.WaitForNotification(c)
		got <- n
		errc <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if err := snd.Exec(`NOTIFY jobs, 'first'`); err != nil {
		t.Fatal(err)
	}
	if n, err := <-got, <-errc; err != nil || n != (deltaview.Notification{Channel: "jobs", Payload: "first", PID: spid}) {
		t.Fatalf("got %+v, %v", n, err)
	}

	if err := snd.Exec(`BEGIN; NOTIFY jobs, 'x'; ROLLBACK;
		BEGIN; NOTIFY jobs, 'a'; SAVEPOINT s; NOTIFY jobs, 'undone'; ROLLBACK TO s; NOTIFY jobs, 'b'; NOTIFY jobs, 'a'; COMMIT;
		SELECT pg_notify('jobs', 'c'), pg_notify('other', 'd')`); err != nil {
		t.Fatal(err)
	}
	var payloads []string
	for range 3 {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		n, err := lis.WaitForNotification(c)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		payloads = append(payloads, n.Payload)
	}
	if want := []string{"a", "b", "c"}; !slices.Equal(payloads, want) {
		t.Fatalf("payloads %q, want %q", payloads, want)
	}
	c, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := lis.WaitForNotification(c); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("no notification left: %v", err)
	}
	if err := lis.Exec(`BEGIN`); err != nil {
		t.Fatal(err)
	}
	if _, err := lis.WaitForNotification(context.Background()); deltaview.Code(err) != "25001" {
		t.Fatalf("waiting inside a transaction block: %v, want 25001", err)
	}
}

// TestNotifyAsRole listens and notifies in a session acting as a role
// without privileges: as in PostgreSQL, LISTEN, NOTIFY and pg_notify
// need none.
func TestNotifyAsRole(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	if err := db.Exec(`CREATE ROLE plain LOGIN`); err != nil {
		t.Fatal(err)
	}
	s, err := db.SessionAs("plain")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Exec(`LISTEN c; NOTIFY c, 'one'; SELECT pg_notify('c', 'two'); UNLISTEN nosuch`); err != nil {
		t.Fatal(deltaview.FormatError(err))
	}
	for _, want := range []string{"one", "two"} {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		n, err := s.WaitForNotification(c)
		cancel()
		if err != nil || n.Payload != want {
			t.Fatalf("got %+v, %v, want %q", n, err, want)
		}
	}
}
