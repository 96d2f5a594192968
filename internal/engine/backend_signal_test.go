package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSignalBackend checks pg_cancel_backend and pg_terminate_backend: a
// cancel stops the other session's sleep or query with 57014 and leaves
// the session usable; a pid that names no session gives false; a
// terminate fails the running statement and every later one with 57P01
// and takes the session out of pg_stat_activity; a session that cancels
// itself fails at once.
func TestSignalBackend(t *testing.T) {
	e := engine.New()
	a, b := e.NewSession(), e.NewSession()
	defer a.Close()
	defer b.Close()
	pid := strings.TrimPrefix(strings.TrimSpace(runIn(t, a, "SELECT pg_backend_pid()")), "pg_backend_pid\n")
	interrupted := func(stmt, signal string) string {
		t.Helper()
		got := make(chan string, 1)
		go func() { got <- runIn(t, a, stmt) }()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			if strings.Contains(runIn(t, b, "SELECT state FROM pg_stat_activity WHERE pid = "+pid), "active") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the session does not run its statement")
			}
		}
		if out := runIn(t, b, "SELECT "+signal+"("+pid+")"); !strings.HasSuffix(strings.TrimSpace(out), "\nt") {
			t.Fatalf("%s: %s", signal, out)
		}
		select {
		case out := <-got:
			return out
		case <-time.After(5 * time.Second):
			t.Fatalf("%s did not stop %s", signal, stmt)
		}
		return ""
	}
	if out := interrupted("SELECT pg_sleep(60)", "pg_cancel_backend"); !strings.HasPrefix(out, "ERROR: 57014 canceling statement due to user request") {
		t.Fatalf("cancelled sleep: %s", out)
	}
	if out := interrupted("SELECT count(*) FROM generate_series(1, 1000000000)", "pg_cancel_backend"); !strings.HasPrefix(out, "ERROR: 57014") {
		t.Fatalf("cancelled query: %s", out)
	}
	if out := runIn(t, a, "SELECT 1 AS one"); strings.TrimSpace(out) != "one\n1" {
		t.Fatalf("after a cancel: %q", out)
	}
	if out := runIn(t, b, "SELECT pg_cancel_backend(999999), pg_terminate_backend(999999)"); !strings.HasSuffix(strings.TrimSpace(out), "\nf,f") {
		t.Fatalf("no such session: %q", out)
	}
	if out := runIn(t, b, "SELECT pg_cancel_backend(pg_backend_pid())"); !strings.HasPrefix(out, "ERROR: 57014") {
		t.Fatalf("self cancel: %q", out)
	}
	if out := runIn(t, b, "SELECT 1 AS one"); strings.TrimSpace(out) != "one\n1" {
		t.Fatalf("after a self cancel: %q", out)
	}
	if out := interrupted("SELECT pg_sleep(60)", "pg_terminate_backend"); !strings.HasPrefix(out, "ERROR: 57P01 terminating connection due to administrator command") {
		t.Fatalf("terminated sleep: %s", out)
	}
	if out := runIn(t, a, "SELECT 1"); !strings.HasPrefix(out, "ERROR: 57P01") {
		t.Fatalf("after a terminate: %q", out)
	}
	if out := runIn(t, b, "SELECT count(*) FROM pg_stat_activity WHERE pid = "+pid); strings.TrimSpace(out) != "count\n0" {
		t.Fatalf("terminated session listed: %q", out)
	}
}

// TestSignalIdle checks that a cancel that finds the session idle is
// forgotten: its next statement runs.
func TestSignalIdle(t *testing.T) {
	e := engine.New()
	a, b := e.NewSession(), e.NewSession()
	defer a.Close()
	defer b.Close()
	pid := strings.TrimPrefix(strings.TrimSpace(runIn(t, a, "SELECT pg_backend_pid()")), "pg_backend_pid\n")
	if out := runIn(t, b, "SELECT pg_cancel_backend("+pid+")"); !strings.HasSuffix(strings.TrimSpace(out), "\nt") {
		t.Fatal(out)
	}
	if out := runIn(t, a, "SELECT pg_sleep(0.05), 1 AS one"); strings.TrimSpace(out) != "pg_sleep,one\n,1" {
		t.Fatalf("after a cancel while idle: %q", out)
	}
}
