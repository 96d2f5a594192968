package pgwire_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
)

// intRows runs q and returns its first column's integers.
func intRows(t *testing.T, c *pgx.Conn, q string, mode pgx.QueryExecMode) []int32 {
	t.Helper()
	rows, err := c.Query(ctx(t), q, mode)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// A cursor a PL/pgSQL function opens and returns stays open in the
// transaction block, as PostgreSQL's portal: the SQL level's FETCH reads
// the rows the function did not, CLOSE closes it, and it ends with the
// transaction.
func TestCursorReturnedByFunction(t *testing.T) {
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		t.Run(mode.String(), func(t *testing.T) {
			addr := startServer(t, deltaview.Open())
			c := connect(t, addr)
			mustExec(t, c, `CREATE FUNCTION rc(c refcursor) RETURNS refcursor LANGUAGE plpgsql AS $$
DECLARE x int;
BEGIN
  OPEN c FOR SELECT g FROM generate_series(1, 4) g;
  FETCH c INTO x;
  RETURN c;
END $$`)
			mustExec(t, c, `BEGIN`)
			var name string
			if err := c.QueryRow(ctx(t), `SELECT rc(NULL)`, mode).Scan(&name); err != nil || name != "<unnamed portal 1>" {
				t.Fatalf("SELECT rc(NULL): %q %v", name, err)
			}
			if got := intRows(t, c, `FETCH 1 IN "<unnamed portal 1>"`, mode); !slices.Equal(got, []int32{2}) {
				t.Errorf("FETCH 1: %v, want [2]", got)
			}
			if got := intRows(t, c, `FETCH ALL IN "<unnamed portal 1>"`, mode); !slices.Equal(got, []int32{3, 4}) {
				t.Errorf("FETCH ALL: %v, want [3 4]", got)
			}
			if err := c.QueryRow(ctx(t), `SELECT rc('named')`, mode).Scan(&name); err != nil || name != "named" {
				t.Fatalf("SELECT rc('named'): %q %v", name, err)
			}
			mustExec(t, c, `CLOSE named`)
			_, err := c.Exec(ctx(t), `FETCH ALL FROM named`, mode)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "34000" {
				t.Fatalf("FETCH of a closed cursor: %v, want 34000", err)
			}
			mustExec(t, c, `ROLLBACK`)

			// Outside a transaction block the portal ends with the statement.
			if err := c.QueryRow(ctx(t), `SELECT rc('gone')`, mode).Scan(&name); err != nil {
				t.Fatal(err)
			}
			mustExec(t, c, `BEGIN`)
			if _, err := c.Exec(ctx(t), `FETCH ALL FROM gone`, mode); !errors.As(err, &pe) || pe.Code != "34000" {
				t.Fatalf("FETCH after the statement's transaction: %v, want 34000", err)
			}
			mustExec(t, c, `ROLLBACK`)
		})
	}
}

// A cursor the client declares is one a PL/pgSQL call reads, and one a
// call opens is read by the next call, as PostgreSQL's portals.
func TestCursorSharedWithFunctions(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE FUNCTION nx(c refcursor) RETURNS int LANGUAGE plpgsql AS $$
DECLARE x int;
BEGIN
  FETCH c INTO x;
  RETURN x;
END $$`)
	mustExec(t, c, `BEGIN`)
	mustExec(t, c, `DECLARE d CURSOR FOR SELECT g FROM generate_series(1, 3) g`)
	if got := intRows(t, c, `SELECT nx('d')`, pgx.QueryExecModeSimpleProtocol); !slices.Equal(got, []int32{1}) {
		t.Errorf("nx(d): %v, want [1]", got)
	}
	if got := intRows(t, c, `FETCH ALL FROM d`, pgx.QueryExecModeSimpleProtocol); !slices.Equal(got, []int32{2, 3}) {
		t.Errorf("FETCH ALL: %v, want [2 3]", got)
	}
	mustExec(t, c, `ROLLBACK`)
}
