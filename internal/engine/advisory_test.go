package engine_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestAdvisoryLockWait checks the waits for an advisory lock: a query
// waits, holding no engine lock, while the holder goes on writing, shows
// in pg_locks as not granted, and takes the lock when the holder gives it
// back (running again from the start, so the locks it took before its
// wait are held once); lock_timeout ends a wait with 55P03; a data change
// does not wait; the end of a session gives back its locks.
func TestAdvisoryLockWait(t *testing.T) {
	e := engine.New()
	a, b := e.NewSession(), e.NewSession()
	defer b.Close()
	run(t, e, "CREATE TABLE t (id int PRIMARY KEY)")
	if out := runIn(t, a, "SELECT pg_advisory_lock(1)"); !strings.Contains(out, "pg_advisory_lock") {
		t.Fatal(out)
	}
	got := make(chan string)
	go func() {
		got <- runIn(t, b, "SELECT pg_advisory_lock(7), pg_advisory_lock_shared(1), pg_advisory_xact_lock(8)")
	}()
	waiting := func() string {
		return runCSV(t, e, "SELECT count(*) FILTER (WHERE NOT granted), count(*) FILTER (WHERE granted AND objid = 7) FROM pg_locks WHERE locktype = 'advisory'")
	}
	for deadline := time.Now().Add(10 * time.Second); waiting() != "count,count\n1,0\n"; {
		if time.Now().After(deadline) {
			t.Fatalf("the waiter is not in pg_locks: %q", waiting())
		}
		time.Sleep(time.Millisecond)
	}
	if out := runCSV(t, e, "SELECT wait_event_type, wait_event, state FROM pg_stat_activity WHERE wait_event IS NOT NULL"); out != "wait_event_type,wait_event,state\nLock,advisory,active\n" {
		t.Fatalf("the waiter in pg_stat_activity: %s", out)
	}
	// The holder writes while the other session waits.
	if out := runIn(t, a, "BEGIN; INSERT INTO t VALUES (1); COMMIT"); !strings.Contains(out, "COMMIT") {
		t.Fatal(out)
	}
	select {
	case out := <-got:
		t.Fatalf("the wait ended while the lock was held: %s", out)
	case <-time.After(20 * time.Millisecond):
	}
	runIn(t, a, "SELECT pg_advisory_unlock(1)")
	select {
	case out := <-got:
		if strings.TrimSpace(out) != "pg_advisory_lock,pg_advisory_lock_shared,pg_advisory_xact_lock\n,," {
			t.Fatalf("the waiter got %q", out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiter did not get the released lock")
	}
	want := "pid,objid,mode,granted\nb,1,ShareLock,t\nb,7,ExclusiveLock,t\n"
	pid := strings.TrimSpace(strings.Split(runIn(t, b, "SELECT pg_backend_pid()"), "\n")[1])
	if out := strings.ReplaceAll(runCSV(t, e, "SELECT pid, objid, mode, granted FROM pg_locks WHERE locktype = 'advisory' ORDER BY objid"), pid, "b"); out != want {
		t.Fatalf("pg_locks after the wait:\n%s want\n%s", out, want)
	}

	runIn(t, a, "SET lock_timeout = '30ms'")
	start := time.Now()
	if out := runIn(t, a, "SELECT pg_advisory_lock(7)"); !strings.HasPrefix(out, "ERROR: 55P03 canceling statement due to lock timeout") {
		t.Fatal(out)
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("the wait gave up after %v, before its timeout", d)
	}
	if out := strings.TrimRight(runIn(t, a, "SELECT pg_try_advisory_lock(7), pg_try_advisory_lock_shared(1)"), "\n") + "\n"; out != "pg_try_advisory_lock,pg_try_advisory_lock_shared\nf,t\n" {
		t.Fatal(out)
	}
	if out := runIn(t, a, "INSERT INTO t SELECT 2 FROM (SELECT pg_advisory_lock(7)) x"); !strings.HasPrefix(out, "ERROR: 55P03 could not obtain advisory lock") {
		t.Fatal(out)
	}
	if out := runCSV(t, e, "SELECT state, wait_event FROM pg_stat_activity WHERE pid = "+pid); out != "state,wait_event\nidle,NULL\n" {
		t.Fatalf("pg_stat_activity after the wait: %s", out)
	}
	b.Close()
	if out := runCSV(t, e, "SELECT count(*) FROM pg_stat_activity WHERE pid = "+pid); out != "count\n0\n" {
		t.Fatalf("a closed session is in pg_stat_activity: %s", out)
	}
	if out := runCSV(t, e, "SELECT count(*) FROM pg_locks WHERE pid <> (SELECT min(pid) FROM pg_locks)"); out != "count\n0\n" {
		t.Fatalf("a closed session's locks are held: %s", out)
	}
	a.Close()
	if out := runCSV(t, e, "SELECT count(*) FROM pg_locks"); out != "count\n0\n" {
		t.Fatalf("a closed session's locks are held: %s", out)
	}
}

// runCSV is run with its lines ended by newlines alone.
func runCSV(t *testing.T, e *engine.Engine, script string) string {
	return strings.TrimRight(strings.ReplaceAll(run(t, e, script), "\r\n", "\n"), "\n") + "\n"
}

// TestStatActivityForgetsUnclosed checks that a session that ran SQL and
// was never closed leaves pg_stat_activity once it is garbage, and that
// a session reused after its Close is listed once.
func TestStatActivityForgetsUnclosed(t *testing.T) {
	e := engine.New()
	func() {
		s := e.NewSession()
		runIn(t, s, "SELECT 1")
	}()
	reader := e.NewSession()
	defer reader.Close()
	count := func() string {
		return strings.TrimSpace(runIn(t, reader, "SELECT count(*) FROM pg_stat_activity"))
	}
	if got := count(); got != "count\n2" {
		t.Fatalf("before the collection: %q", got)
	}
	for range 5 {
		runtime.GC()
		if count() == "count\n1" {
			break
		}
	}
	if got := count(); got != "count\n1" {
		t.Fatalf("an unclosed session that is garbage is listed: %q", got)
	}
	var s engine.Session
	for range 3 {
		e.InitTxSession(&s)
		runIn(t, &s, "SELECT 1")
		s.Close()
	}
	e.InitTxSession(&s)
	runIn(t, &s, "SELECT 1")
	if got := count(); got != "count\n2" {
		t.Fatalf("a reused session: %q", got)
	}
}
