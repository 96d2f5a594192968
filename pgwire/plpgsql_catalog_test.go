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

// A function that changes the catalog, called by a query that reads a
// table, through the extended protocol: its tables stay after the
// statement, an error undoes every call's, and the table the query reads
// is kept from changes (55006), the connection out of any transaction
// after each.
func TestPgxFunctionCatalogChangeReading(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE todo (id int PRIMARY KEY);
INSERT INTO todo VALUES (1), (2), (3);
CREATE FUNCTION mk_part(i int, fail int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE part_%s (x int)', i);
  IF i = fail THEN
    RAISE EXCEPTION 'no %', i;
  END IF;
  RETURN 'part_' || i;
END $$;
CREATE FUNCTION ex(q text) RETURNS int LANGUAGE plpgsql AS $$ BEGIN EXECUTE q; RETURN 1; END $$`); err != nil {
		t.Fatal(err)
	}
	c := connect(t, startServer(t, db))
	mode := pgx.QueryExecModeCacheStatement
	var parts []string
	rows, err := c.Query(ctx(t), `SELECT mk_part(id, $1) FROM todo WHERE id > $2 ORDER BY id`, mode, 0, 1)
	if err == nil {
		for rows.Next() {
			var p string
			if err := rows.Scan(&p); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
		rows.Close()
		err = rows.Err()
	}
	if err != nil || len(parts) != 2 || parts[0] != "part_2" || parts[1] != "part_3" {
		t.Fatalf("the calls gave %v, %v", parts, err)
	}
	if st := c.PgConn().TxStatus(); st != 'I' {
		t.Fatalf("transaction status %c after the calls", st)
	}
	_, err = c.Exec(ctx(t), `SELECT mk_part(id + 10, $1) FROM todo`, mode, 13)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "P0001" {
		t.Fatalf("a failing call gave %v, want P0001", err)
	}
	_, err = c.Exec(ctx(t), `SELECT ex($1) FROM todo`, mode, "ALTER TABLE todo ADD COLUMN z int")
	if !errors.As(err, &pe) || pe.Code != "55006" {
		t.Fatalf("altering the table read gave %v, want 55006", err)
	}
	if st := c.PgConn().TxStatus(); st != 'I' {
		t.Fatalf("transaction status %c after the failed calls", st)
	}
	var n int
	if err := c.QueryRow(ctx(t), `SELECT count(*) FROM pg_class WHERE relname LIKE $1`, mode, "part%").Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d tables made, %v; want part_2 and part_3 alone", n, err)
	}
}
