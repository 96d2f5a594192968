package pgwire_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	deltaview "github.com/deltaview/deltaview"
)

// TestCallOverWire: CALL returns the row of its output parameters over
// both protocols, and a procedure that commits leaves the session idle,
// not in a transaction, as PostgreSQL does.
func TestCallOverWire(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c, err := pgx.Connect(ctx(t), connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	mustExec(t, c, `CREATE TABLE w (a int)`)
	mustExec(t, c, `CREATE PROCEDURE addw(x int, INOUT n int) LANGUAGE plpgsql AS $$
BEGIN INSERT INTO w VALUES (x); COMMIT; INSERT INTO w VALUES (x + 1); n := n + x; END $$`)
	var n int
	if err := c.QueryRow(ctx(t), "CALL addw($1, $2)", 5, 10).Scan(&n); err != nil || n != 15 {
		t.Fatalf("CALL addw(5, 10): %d, %v", n, err)
	}
	if st := c.PgConn().TxStatus(); st != 'I' {
		t.Errorf("transaction status after CALL %q, want 'I'", st)
	}
	rr := c.PgConn().Exec(ctx(t), "CALL addw(1, 1)")
	res, err := rr.ReadAll()
	if err != nil || len(res) != 1 || len(res[0].Rows) != 1 || string(res[0].Rows[0][0]) != "2" {
		t.Fatalf("simple CALL: %v, %v", res, err)
	}
	if st := c.PgConn().TxStatus(); st != 'I' {
		t.Errorf("transaction status after simple CALL %q, want 'I'", st)
	}
	var cnt int
	if err := c.QueryRow(ctx(t), "SELECT count(*) FROM w").Scan(&cnt); err != nil || cnt != 4 {
		t.Fatalf("rows: %d, %v", cnt, err)
	}
}
