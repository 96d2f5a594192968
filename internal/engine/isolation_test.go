package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestSerializableWriteSkew runs the write skew of two SERIALIZABLE (and
// REPEATABLE READ) transactions, each taking a doctor off call when two
// are on call, in two sessions at once. PostgreSQL's SERIALIZABLE fails
// one of them (40001) and its REPEATABLE READ lets both commit, leaving
// no doctor on call; here the second waits for the first's end at its
// first query, so both commit, in a serial order: the result must be
// PostgreSQL's for the two run one after the other.
func TestSerializableWriteSkew(t *testing.T) {
	const setup = `CREATE TABLE doctors (name text PRIMARY KEY, on_call bool);
INSERT INTO doctors VALUES ('alice', true), ('bob', true)`
	offCall := func(name string) string {
		return `UPDATE doctors SET on_call = false WHERE name = '` + name +
			`' AND (SELECT count(*) FROM doctors WHERE on_call) >= 2`
	}
	const state = `SELECT name, on_call FROM doctors ORDER BY name`
	for _, level := range []string{"SERIALIZABLE", "REPEATABLE READ"} {
		t.Run(level, func(t *testing.T) {
			e := engine.New()
			a, b := e.NewSession(), e.NewSession()
			defer a.Close()
			defer b.Close()
			runIn(t, a, setup)
			runIn(t, a, "BEGIN ISOLATION LEVEL "+level)
			before := runIn(t, a, state)
			done := make(chan string)
			go func() {
				var out strings.Builder
				for _, st := range []string{"BEGIN ISOLATION LEVEL " + level, offCall("bob"), "COMMIT"} {
					if err := b.ExecScript(st, func(r engine.Result) error { out.WriteString(r.Tag + ";"); return nil }); err != nil {
						out.WriteString("ERROR " + err.Error())
					}
				}
				done <- out.String()
			}()
			time.Sleep(20 * time.Millisecond)
			select {
			case got := <-done:
				t.Fatalf("b ran while a's %s block was open: %s", level, got)
			default:
			}
			if again := runIn(t, a, state); again != before {
				t.Fatalf("a's second read %q, first %q", again, before)
			}
			runIn(t, a, offCall("alice"))
			runIn(t, a, "COMMIT")
			if got := <-done; got != "BEGIN;UPDATE 0;COMMIT;" {
				t.Fatalf("b: %s", got)
			}
			got := runIn(t, a, state)

			srv := pgtest.Start(t)
			pg := srv.Conn(t)
			pgtest.MustQuery(t, pg, setup)
			for _, st := range []string{"BEGIN ISOLATION LEVEL " + level, offCall("alice"), "COMMIT",
				"BEGIN ISOLATION LEVEL " + level, offCall("bob"), "COMMIT"} {
				pgtest.MustQuery(t, pg, st)
			}
			want := strings.Builder{}
			want.WriteString("name,on_call\n")
			for _, r := range pgtest.MustQuery(t, pg, state) {
				want.WriteString(*r[0] + "," + *r[1] + "\n")
			}
			if got = strings.TrimSpace(got); got != strings.TrimSpace(want.String()) {
				t.Fatalf("deltaview %q, PostgreSQL run serially %q", got, want.String())
			}
		})
	}
}
