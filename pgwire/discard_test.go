package pgwire_test

import (
	"testing"

	"github.com/deltaview/deltaview"
)

// TestDiscardAll runs DISCARD ALL as pgbouncer does between clients: it
// resets the settings and closes the protocol's prepared statements.
func TestDiscardAll(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c := connect(t, addr)
	pc := c.PgConn()
	if _, err := pc.Prepare(ctx(t), "s1", "SELECT 1", nil); err != nil {
		t.Fatal(err)
	}
	mustExec(t, c, "SET IntervalStyle = iso_8601")
	if got := pc.ParameterStatus("IntervalStyle"); got != "iso_8601" {
		t.Errorf("IntervalStyle reported %q", got)
	}
	if _, err := pc.Exec(ctx(t), "DISCARD ALL").ReadAll(); err != nil {
		t.Fatal(err)
	}
	if got := pc.ParameterStatus("IntervalStyle"); got != "postgres" {
		t.Errorf("after DISCARD ALL IntervalStyle reported %q, want postgres", got)
	}
	r := pc.ExecPrepared(ctx(t), "s1", nil, nil, nil).Read()
	if sqlstate(r.Err) != "26000" {
		t.Errorf("s1 after DISCARD ALL: %v, want SQLSTATE 26000", r.Err)
	}
	if _, err := pc.Prepare(ctx(t), "s1", "SELECT 2", nil); err != nil {
		t.Errorf("preparing s1 again: %v", err)
	}
}
