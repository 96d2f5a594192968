package pgwire_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestInferredDomainCheckAtBind: a parameter whose type an assignment to
// a column of a domain gives (INSERT … VALUES ($1), UPDATE … SET d = $1)
// is of that domain, as PostgreSQL infers it, and is checked against the
// domain at Bind: the statement does not run, so the nextval beside it
// is not drawn (PostgreSQL 15 gives 1 to the nextval after).
func TestInferredDomainCheckAtBind(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c := connect(t, addr)
	mustExec(t, c, `CREATE DOMAIN f10_pd AS int CHECK (VALUE > 0)`)
	mustExec(t, c, `CREATE SEQUENCE ps`)
	mustExec(t, c, `CREATE TABLE pt (a bigint, d f10_pd)`)
	if _, err := c.Prepare(ctx(t), "ins", `INSERT INTO pt VALUES (nextval('ps'), $1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx(t), "ins", -1); err == nil || !strings.Contains(err.Error(), "23514") {
		t.Fatalf("INSERT of -1: got %v, want 23514", err)
	}
	if _, err := c.Prepare(ctx(t), "upd", `UPDATE pt SET a = nextval('ps'), d = $1`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx(t), "ins", 3); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx(t), "upd", 0); err == nil || !strings.Contains(err.Error(), "23514") {
		t.Fatalf("UPDATE to 0: got %v, want 23514", err)
	}
	var a, d int64
	if err := c.QueryRow(ctx(t), `SELECT a, d FROM pt`).Scan(&a, &d); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := c.QueryRow(ctx(t), `SELECT nextval('ps')`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if a != 1 || d != 3 || n != 2 {
		t.Fatalf("got row (%d, %d) and nextval %d, want (1, 3) and 2", a, d, n)
	}
}
