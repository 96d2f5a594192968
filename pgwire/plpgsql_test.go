package pgwire_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	deltaview "github.com/deltaview/deltaview"
)

// TestPLpgSQLMessages: RAISE's notices reach the client with their
// severity, and an error raised in a function with its CONTEXT and the
// fields RAISE … USING gave it, as PostgreSQL sends them.
func TestPLpgSQLMessages(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { got = append(got, n.Severity+" "+n.Code+" "+n.Message) }
	c, err := pgx.ConnectConfig(ctx(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	mustExec(t, c, `DO $$ BEGIN RAISE INFO 'i'; RAISE NOTICE 'n'; RAISE WARNING 'w'; RAISE LOG 'l'; END $$`)
	if want := "INFO 00000 i|NOTICE 00000 n|WARNING 01000 w"; strings.Join(got, "|") != want {
		t.Errorf("notices %q, want %q", strings.Join(got, "|"), want)
	}
	mustExec(t, c, `CREATE FUNCTION boom(x int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'boom %', x USING TABLE = 't', COLUMN = 'c';
END $$`)
	_, err = c.Exec(ctx(t), "SELECT boom(1)")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "P0001" || pe.Where != "PL/pgSQL function boom(integer) line 3 at RAISE" ||
		pe.TableName != "t" || pe.ColumnName != "c" {
		t.Errorf("SELECT boom(1): %#v", err)
	}
}
