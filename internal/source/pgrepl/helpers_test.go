package pgrepl_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
	_ "github.com/deltaview/deltaview/internal/source/pgrepl"
	"github.com/deltaview/deltaview/internal/sql"
)

func TestMain(m *testing.M) {
	pgtest.UseLogicalReplication()
	pgtest.Main(m)
}

// upstream is a fresh upstream database and its connection string.
func upstream(t *testing.T) (*pgx.Conn, string) {
	srv := pgtest.Start(t)
	conn := srv.Conn(t)
	return conn, srv.ConnString(conn.Config().Database)
}

// exec runs a script upstream.
func exec(t *testing.T, conn *pgx.Conn, script string) {
	t.Helper()
	pgtest.MustQuery(t, conn, script)
}

// dv runs a script in deltaview and fails t on error.
func dv(t *testing.T, e *engine.Engine, script string) {
	t.Helper()
	if err := dvErr(e, script); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

func dvErr(e *engine.Engine, script string) error {
	s := e.NewSession()
	defer s.Close()
	return s.ExecScript(script, func(engine.Result) error { return nil })
}

// dvRows returns a query's rows in deltaview as sorted text lines.
func dvRows(t *testing.T, e *engine.Engine, query string) []string {
	t.Helper()
	st, err := sql.Parse(query)
	if err != nil {
		t.Fatal(err)
	}
	s := e.NewSession()
	defer s.Close()
	res, err := s.Exec(st)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	var out []string
	for _, r := range res[0].Rows {
		f := make([]string, len(r))
		for i, v := range r {
			f[i] = v.String()
		}
		out = append(out, strings.Join(f, "|"))
	}
	sort.Strings(out)
	return out
}

// pgRows returns a query's rows upstream as sorted text lines.
func pgRows(t *testing.T, conn *pgx.Conn, query string) []string {
	t.Helper()
	return pgtest.SortedLines(t, conn, query)
}

// subStatus is a subscription's row of deltaview_subscriptions.
type subStatus struct {
	state, received, applied, lastErr string
	txs, rowsCopied                   int64
}

func status(t *testing.T, e *engine.Engine, name string) subStatus {
	t.Helper()
	st, _ := sql.Parse("SELECT state, received_lsn, applied_lsn, coalesce(last_error, ''), transactions, rows_copied FROM deltaview_subscriptions WHERE name = '" + name + "'")
	s := e.NewSession()
	defer s.Close()
	res, err := s.Exec(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(res[0].Rows) != 1 {
		t.Fatalf("subscription %s: %d rows in deltaview_subscriptions", name, len(res[0].Rows))
	}
	r := res[0].Rows[0]
	return subStatus{state: r[0].Str(), received: r[1].Str(), applied: r[2].Str(), lastErr: r[3].Str(), txs: r[4].Int(), rowsCopied: r[5].Int()}
}

// waitApplied waits until subscription name has applied everything
// upstream committed so far.
func waitApplied(t *testing.T, e *engine.Engine, conn *pgx.Conn, name string) subStatus {
	t.Helper()
	var lsnText string
	if err := conn.QueryRow(t.Context(), "SELECT pg_current_wal_insert_lsn()::text").Scan(&lsnText); err != nil {
		t.Fatal(err)
	}
	want, _ := pglogrepl.ParseLSN(lsnText)
	deadline := time.Now().Add(60 * time.Second)
	for {
		st := status(t, e, name)
		if st.state == "failed" {
			t.Fatalf("subscription %s failed: %s", name, st.lastErr)
		}
		got, _ := pglogrepl.ParseLSN(st.applied)
		if got >= want {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("subscription %s: applied %s, waiting for %s (state %s, %s)", name, st.applied, lsnText, st.state, st.lastErr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sameRows fails t when query differs between deltaview and upstream.
func sameRows(t *testing.T, e *engine.Engine, conn *pgx.Conn, dvQuery, pgQuery string) bool {
	t.Helper()
	got, want := dvRows(t, e, dvQuery), pgRows(t, conn, pgQuery)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ndeltaview (%d rows):\n%s\nupstream (%d rows):\n%s", dvQuery, len(got), head(got), len(want), head(want))
		return false
	}
	return true
}

func head(rows []string) string {
	if len(rows) > 20 {
		return strings.Join(rows[:20], "\n") + fmt.Sprintf("\n… %d more", len(rows)-20)
	}
	return strings.Join(rows, "\n")
}

func sleep() { time.Sleep(10 * time.Millisecond) }

// lsnGreater reports whether LSN a is past LSN b.
func lsnGreater(a, b string) bool {
	x, _ := pglogrepl.ParseLSN(a)
	y, _ := pglogrepl.ParseLSN(b)
	return x > y
}

// waitSinks waits until every foreign table has applied its queue.
func waitSinks(t *testing.T, e *engine.Engine) {
	t.Helper()
	for i := 0; ; i++ {
		rows := dvRows(t, e, "SELECT name, state, pending_steps, coalesce(last_error, '') FROM deltaview_sinks")
		done := true
		for _, r := range rows {
			f := strings.Split(r, "|")
			if f[1] == "failed" {
				t.Fatalf("foreign table %s failed: %s", f[0], f[3])
			}
			if f[2] != "0" || f[1] == "loading" {
				done = false
			}
		}
		if done {
			return
		}
		if i == 6000 {
			t.Fatalf("foreign tables still behind: %v", rows)
		}
		sleep()
	}
}
