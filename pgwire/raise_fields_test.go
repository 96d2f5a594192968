package pgwire_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	deltaview "github.com/deltaview/deltaview"
)

// TestRaiseNoticeFields: a RAISE of level INFO, NOTICE or WARNING sends
// the client its DETAIL, HINT, object names and CONTEXT (the calls around
// it, innermost first), as PostgreSQL 15 does (checked with psql's
// VERBOSITY verbose and SHOW_CONTEXT always).
func TestRaiseNoticeFields(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		got = append(got, strings.Join([]string{n.Severity, n.Code, n.Message, "D=" + n.Detail, "H=" + n.Hint,
			"S=" + n.SchemaName, "T=" + n.TableName, "C=" + n.ColumnName, "DT=" + n.DataTypeName, "K=" + n.ConstraintName,
			"W=" + n.Where}, "|"))
	}
	c, err := pgx.ConnectConfig(ctx(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	for _, tc := range []struct{ q, want string }{
		{`DO $$ BEGIN RAISE NOTICE 'n1' USING DETAIL = 'd1', HINT = 'h1', ERRCODE = '22012', COLUMN = 'c1', CONSTRAINT = 'k1', DATATYPE = 'dt1', TABLE = 't1', SCHEMA = 's1'; END $$`,
			`NOTICE|22012|n1|D=d1|H=h1|S=s1|T=t1|C=c1|DT=dt1|K=k1|W=PL/pgSQL function inline_code_block line 1 at RAISE`},
		{`DO $$ BEGIN RAISE WARNING 'w1' USING DETAIL = 'd1', HINT = 'h1'; END $$`,
			`WARNING|01000|w1|D=d1|H=h1|S=|T=|C=|DT=|K=|W=PL/pgSQL function inline_code_block line 1 at RAISE`},
		{`DO $$ BEGIN RAISE INFO 'i1' USING ERRCODE = 'division_by_zero'; END $$`,
			`INFO|22012|i1|D=|H=|S=|T=|C=|DT=|K=|W=PL/pgSQL function inline_code_block line 1 at RAISE`},
		{`CREATE FUNCTION p_in(x int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RAISE WARNING 'w %', x USING HINT = 'h', COLUMN = 'c'; RETURN x; END $$`, ``},
		{`CREATE FUNCTION p_out() RETURNS int LANGUAGE plpgsql AS $$ DECLARE r int; BEGIN
  r := p_in(2);
  PERFORM p_in(3);
  RETURN r; END $$`, ``},
		{`SELECT p_out()`, "WARNING|01000|w 2|D=|H=h|S=|T=|C=c|DT=|K=|W=PL/pgSQL function p_in(integer) line 1 at RAISE\nPL/pgSQL function p_out() line 2 at assignment" +
			"\nWARNING|01000|w 3|D=|H=h|S=|T=|C=c|DT=|K=|W=PL/pgSQL function p_in(integer) line 1 at RAISE\nSQL statement \"SELECT p_in(3)\"\nPL/pgSQL function p_out() line 3 at PERFORM"},
	} {
		got = nil
		if _, err := c.Exec(ctx(t), tc.q); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if g := strings.Join(got, "\n"); g != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.q, g, tc.want)
		}
	}
}
