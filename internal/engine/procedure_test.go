package engine

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/zset"
)

// TestProcedureCommitsDeltas: every COMMIT of a procedure ends a
// transaction, whose view deltas a subscriber receives at once, with a
// timestamp of its own; a ROLLBACK's changes never reach it, nor do those
// of a part that fails after the last commit.
func TestProcedureCommitsDeltas(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) error {
		t.Helper()
		return sess.ExecScript(sql, func(Result) error { return nil })
	}
	if err := run(`CREATE TABLE k (v int);
		CREATE MATERIALIZED VIEW kv AS SELECT v FROM k;
		CREATE PROCEDURE parts(fail bool) LANGUAGE plpgsql AS $$
		BEGIN
			INSERT INTO k VALUES (1); COMMIT;
			INSERT INTO k VALUES (2); ROLLBACK;
			INSERT INTO k VALUES (3); COMMIT;
			INSERT INTO k VALUES (4);
			IF fail THEN PERFORM 1 / 0; END IF;
		END $$`); err != nil {
		t.Fatal(err)
	}
	var got []string
	var last uint64
	if _, _, err := e.Watch("kv", false, func(ts uint64, d zset.ZSet) bool {
		if ts <= last {
			t.Errorf("delta at %d after one at %d", ts, last)
		}
		last = ts
		got = append(got, strings.TrimSpace(d.String()))
		return true
	}, nil); err != nil {
		t.Fatal(err)
	}
	if err := run("CALL parts(false)"); err != nil {
		t.Fatal(err)
	}
	if want := "+1 (1)|+1 (3)|+1 (4)"; strings.Join(got, "|") != want {
		t.Fatalf("deltas %q, want %q", strings.Join(got, "|"), want)
	}
	got = nil
	if err := run("CALL parts(true)"); err == nil {
		t.Fatal("CALL parts(true) succeeded")
	}
	if want := "+1 (1)|+1 (3)"; strings.Join(got, "|") != want {
		t.Fatalf("deltas of the failing call %q, want %q", strings.Join(got, "|"), want)
	}
	// In a transaction block the first COMMIT fails, and nothing is
	// committed.
	got = nil
	if err := run("BEGIN; CALL parts(false)"); err == nil {
		t.Fatal("COMMIT in a procedure called in a transaction block succeeded")
	}
	if err := run("ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("deltas from a transaction block: %q", got)
	}
}
