package pgwire_test

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
)

// TestPgxFunctionCatalogChange calls a function whose PL/pgSQL code
// creates a table, through pgx's extended protocol with a parameter and
// through the simple one: the statement that became a transaction block
// for its catalog change ends with it (the server reports no open
// transaction), a failing call undoes what it did, and the connection
// goes on.
func TestPgxFunctionCatalogChange(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE FUNCTION mkt(n text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE %I (x int)', n);
  EXECUTE format('INSERT INTO %I VALUES (5)', n);
  RETURN 1;
END $$`); err != nil {
		t.Fatal(err)
	}
	c := connect(t, startServer(t, db))
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		name := []string{"made_ext", "made_simple"}[i]
		var one int
		if err := c.QueryRow(ctx(t), `SELECT mkt($1)`, mode, name).Scan(&one); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if st := c.PgConn().TxStatus(); st != 'I' {
			t.Fatalf("mode %v: transaction status %c after the call", mode, st)
		}
		_, err := c.Exec(ctx(t), `SELECT mkt($1)`, mode, name)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "42P07" {
			t.Fatalf("mode %v: a second call gave %v, want 42P07", mode, err)
		}
		if st := c.PgConn().TxStatus(); st != 'I' {
			t.Fatalf("mode %v: transaction status %c after the failed call", mode, st)
		}
		var n int
		if err := c.QueryRow(ctx(t), `SELECT count(*) FROM `+name, mode).Scan(&n); err != nil || n != 1 {
			t.Fatalf("mode %v: %d rows, %v", mode, n, err)
		}
	}
}
