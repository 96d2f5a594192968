package sink_test

import (
	"net"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/sink"
)

// silentListener accepts connections and never answers on them, as a
// target whose host is up and whose server hangs.
func silentListener(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range held {
			c.Close()
		}
	})
	return l.Addr().(*net.TCPAddr).Port
}

// stopBackend stops (SIGSTOP) the backend of the target's connection
// named app in conn's database, until the test ends or the returned
// function resumes it.
func stopBackend(t *testing.T, conn *pgx.Conn, app string) (resume func()) {
	t.Helper()
	var pid int
	deadline := time.Now().Add(10 * time.Second)
	for pid == 0 {
		rows := pgtest.MustQuery(t, conn, "SELECT pid FROM pg_stat_activity WHERE application_name = '"+app+"' AND datname = current_database()")
		if len(rows) == 1 {
			pid, _ = strconv.Atoi(*rows[0][0])
		} else if time.Now().After(deadline) {
			t.Fatalf("backends of %s: %d", app, len(rows))
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	return stopPID(t, pid)
}

func stopPID(t *testing.T, pid int) (resume func()) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := true
	resume = func() {
		if stopped {
			stopped = false
			syscall.Kill(pid, syscall.SIGCONT)
		}
	}
	t.Cleanup(resume)
	return resume
}

// sinkState waits until the foreign table's row of deltaview_sinks
// satisfies ok, and returns its state and last error.
func sinkState(t *testing.T, e *engine.Engine, name string, ok func(state, lastErr string) bool) (string, string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		rows, err := exec1(e, "SELECT state, coalesce(last_error, '') FROM deltaview_sinks WHERE name = '"+name+"'")
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 1 && ok(rows[0][0].String(), rows[0][1].String()) {
			return rows[0][0].String(), rows[0][1].String()
		}
		if time.Now().After(deadline) {
			t.Fatalf("foreign table %s: %v", name, rows)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestForeignTargetTimeout: a target that does not answer (a listener
// that accepts and says nothing, a PostgreSQL backend stopped by
// SIGSTOP) makes no statement hang. CREATE FOREIGN TABLE fails with 08001
// within the server's timeout, leaving nothing behind; a step applied to
// a stopped backend fails after the timeout, the foreign table reconnects
// and, the backend resumed, converges with nothing doubled; DROP FOREIGN
// TABLE and DROP SERVER return at once while a call hangs, even with no
// timeout at all.
func TestForeignTargetTimeout(t *testing.T) {
	srv := pgtest.Start(t)
	admin := srv.Conn(t)
	e := engine.New()
	defer e.Close()
	exec(t, e, foreignSchema+`
INSERT INTO groups VALUES (0, 'zero'), (1, 'one');
INSERT INTO items VALUES (1, 0, 'a', 60), (2, 1, 'b', 10);
`)

	// A target that accepts and never answers.
	port := silentListener(t)
	exec(t, e, "CREATE SERVER mute FOREIGN DATA WRAPPER postgres OPTIONS (host '127.0.0.1', port '"+strconv.Itoa(port)+"', dbname 'x', user 'x', timeout '300ms')")
	for range 2 {
		start := time.Now()
		_, err := exec1(e, "CREATE FOREIGN TABLE f () SERVER mute OPTIONS (view 'big')")
		if took := time.Since(start); took > 3*time.Second {
			t.Fatalf("CREATE FOREIGN TABLE on a silent target took %v", took)
		}
		if pgerr.Code(err) != "08001" || !strings.Contains(err.Error(), "no answer within 300ms") {
			t.Fatalf("CREATE FOREIGN TABLE on a silent target: %v (%s)", err, pgerr.Code(err))
		}
		if rows, _ := exec1(e, "SELECT * FROM deltaview_sinks"); len(rows) != 0 {
			t.Fatalf("deltaview_sinks after a failed CREATE FOREIGN TABLE: %v", rows)
		}
	}
	exec(t, e, "DROP SERVER mute")
	if _, err := exec1(e, "CREATE SERVER bad FOREIGN DATA WRAPPER postgres OPTIONS (host 'h', timeout 'soon')"); pgerr.Code(err) != pgerr.InvalidParameter {
		t.Fatalf("timeout 'soon': %v", err)
	}

	// A step applied to a stopped backend.
	opts := strings.ReplaceAll(serverOptions(srv.ConnString(admin.Config().Database)), "'dvsink'", "'dvstop'")
	exec(t, e, "CREATE SERVER wh FOREIGN DATA WRAPPER postgres OPTIONS ("+opts+", timeout '400ms')")
	exec(t, e, "CREATE FOREIGN TABLE named_out () SERVER wh OPTIONS (view 'named')")
	waitSinks(t, e)
	resume := stopBackend(t, admin, "dvstop")
	exec(t, e, "UPDATE items SET val = 'stopped' WHERE id = 1; INSERT INTO items VALUES (3, 0, 'c', 70)")
	_, lastErr := sinkState(t, e, "named_out", func(state, lastErr string) bool {
		return state == "reconnecting" && strings.Contains(lastErr, "no answer from the server within 400ms")
	})
	t.Logf("while the backend is stopped: %s", lastErr)
	resume()
	exec(t, e, "INSERT INTO items VALUES (4, 1, 'd', 80)")
	waitSinks(t, e)
	want := viewText(t, e, "SELECT * FROM named ORDER BY id")
	if got := pgText(t, admin, "SELECT * FROM named_out ORDER BY id"); !slices.Equal(got, want) {
		t.Fatalf("named_out after the backend resumed:\ngot  %q\nwant %q", got, want)
	}

	// Without a timeout, a call to a stopped backend waits; dropping the
	// foreign table ends it at once.
	exec(t, e, "CREATE SERVER forever FOREIGN DATA WRAPPER postgres OPTIONS ("+strings.ReplaceAll(opts, "'dvstop'", "'dvforever'")+", timeout '0')")
	exec(t, e, "CREATE FOREIGN TABLE big_out () SERVER forever OPTIONS (view 'big')")
	waitSinks(t, e)
	stopBackend(t, admin, "dvforever")
	exec(t, e, "UPDATE items SET n = n + 1")
	time.Sleep(200 * time.Millisecond) // the step is under way
	start := time.Now()
	exec(t, e, "DROP FOREIGN TABLE big_out")
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("DROP FOREIGN TABLE with a hanging call took %v", took)
	}
	// And a server with a foreign table whose call hangs.
	stopBackend(t, admin, "dvstop")
	exec(t, e, "UPDATE items SET val = 'again' WHERE id = 2")
	time.Sleep(100 * time.Millisecond)
	start = time.Now()
	exec(t, e, "DROP SERVER wh, forever CASCADE")
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("DROP SERVER with a hanging call took %v", took)
	}
	if rows, _ := exec1(e, "SELECT * FROM deltaview_sinks"); len(rows) != 0 {
		t.Fatalf("deltaview_sinks after DROP SERVER: %v", rows)
	}
}

// TestSinkTimeout: a sink of the Go API whose PostgreSQL backend is
// stopped fails the commit after its timeout with 08006, and the commit
// leaves the view as it was.
func TestSinkTimeout(t *testing.T) {
	srv := pgtest.Start(t)
	conn := srv.Conn(t)
	e := engine.New()
	defer e.Close()
	exec(t, e, foreignSchema+`
INSERT INTO groups VALUES (0, 'zero');
INSERT INTO items VALUES (1, 0, 'a', 60);
`)
	db := sink.NewPostgresDB(conn)
	db.SetTimeout(300 * time.Millisecond)
	if _, err := e.AttachSink("big", db.Table("big")); err != nil {
		t.Fatal(err)
	}
	stopPID(t, int(conn.PgConn().PID()))
	before := viewText(t, e, "SELECT * FROM big ORDER BY id")
	start := time.Now()
	_, err := exec1(e, "INSERT INTO items VALUES (2, 0, 'b', 70)")
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("a commit with a stopped sink took %v", took)
	}
	if pgerr.Code(err) != pgerr.ConnectionFailure || !strings.Contains(err.Error(), "no answer from the server within 300ms") {
		t.Fatalf("a commit with a stopped sink: %v (%s)", err, pgerr.Code(err))
	}
	if got := viewText(t, e, "SELECT * FROM big ORDER BY id"); !slices.Equal(got, before) {
		t.Fatalf("big after the failed commit: %q, want %q", got, before)
	}
	if got := viewText(t, e, "SELECT count(*) FROM items"); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("items after the failed commit: %q", got)
	}
}
