package pgwire_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	deltaview "github.com/deltaview/deltaview"
)

// TestNoticeCodes: notices and warnings reach the client with the
// SQLSTATE PostgreSQL 15 sends (psql's \set VERBOSITY verbose shows it):
// an IF NOT EXISTS that skips is its object's duplicate code, a DROP …
// IF EXISTS that skips 00000, a transaction command outside a block a
// warning of 25P01 or 25001, RAISE … USING ERRCODE its code; DROP …
// CASCADE of several objects one notice that counts them, listed in its
// DETAIL.
func TestNoticeCodes(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		m := n.Severity + " " + n.Code + " " + n.Message
		if n.Detail != "" {
			m += " [" + n.Detail + "]"
		}
		got = append(got, m)
	}
	c, err := pgx.ConnectConfig(ctx(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	for _, tc := range []struct{ q, want string }{
		{`CREATE TABLE t (a int, b int)`, ``},
		{`CREATE TABLE IF NOT EXISTS t (a int)`, `NOTICE 42P07 relation "t" already exists, skipping`},
		{`CREATE TABLE IF NOT EXISTS t AS SELECT 1`, `NOTICE 42P07 relation "t" already exists, skipping`},
		{`CREATE SCHEMA IF NOT EXISTS public`, `NOTICE 42P06 schema "public" already exists, skipping`},
		{`CREATE INDEX i ON t (a)`, ``},
		{`CREATE INDEX IF NOT EXISTS i ON t (a)`, `NOTICE 42P07 relation "i" already exists, skipping`},
		{`CREATE SEQUENCE s`, ``},
		{`CREATE SEQUENCE IF NOT EXISTS s`, `NOTICE 42P07 relation "s" already exists, skipping`},
		{`ALTER TABLE t ADD COLUMN IF NOT EXISTS a int`, `NOTICE 42701 column "a" of relation "t" already exists, skipping`},
		{`CREATE EXTENSION IF NOT EXISTS plpgsql`, `NOTICE 42710 extension "plpgsql" already exists, skipping`},
		{`CREATE STATISTICS st ON a, b FROM t`, ``},
		{`CREATE STATISTICS IF NOT EXISTS st ON a, b FROM t`, `NOTICE 42710 statistics object "st" already exists, skipping`},
		{`CREATE TYPE e AS ENUM ('x')`, ``},
		{`ALTER TYPE e ADD VALUE IF NOT EXISTS 'x'`, `NOTICE 42710 enum label "x" already exists, skipping`},
		{`DROP TABLE IF EXISTS nope`, `NOTICE 00000 table "nope" does not exist, skipping`},
		{`DROP SCHEMA IF EXISTS nope`, `NOTICE 00000 schema "nope" does not exist, skipping`},
		{`ALTER TABLE t DROP COLUMN IF EXISTS zz`, `NOTICE 00000 column "zz" of relation "t" does not exist, skipping`},
		{`CREATE TABLE d (a int)`, ``},
		{`CREATE VIEW dv1 AS SELECT a FROM d`, ``},
		{`CREATE VIEW dv2 AS SELECT a FROM d`, ``},
		{`DROP TABLE d CASCADE`, "NOTICE 00000 drop cascades to 2 other objects [drop cascades to view dv1\ndrop cascades to view dv2]"},
		{`CREATE TABLE d1 (a int)`, ``},
		{`CREATE VIEW dv3 AS SELECT a FROM d1`, ``},
		{`DROP TABLE d1 CASCADE`, `NOTICE 00000 drop cascades to view dv3`},
		{`COMMIT`, `WARNING 25P01 there is no transaction in progress`},
		{`ROLLBACK`, `WARNING 25P01 there is no transaction in progress`},
		{`SET LOCAL work_mem = '1MB'`, `WARNING 25P01 SET LOCAL can only be used in transaction blocks`},
		{`DO $$ BEGIN RAISE NOTICE 'n'; RAISE NOTICE USING ERRCODE = '22012', MESSAGE = 'x'; RAISE WARNING division_by_zero; RAISE INFO 'i' USING ERRCODE = 'P0002'; END $$`,
			`NOTICE 00000 n|NOTICE 22012 x|WARNING 22012 division_by_zero|INFO P0002 i`},
	} {
		got = nil
		if _, err := c.Exec(ctx(t), tc.q); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if g := strings.Join(got, "|"); g != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.q, g, tc.want)
		}
	}
	got = nil
	tx, err := c.Begin(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx(t), `BEGIN`); err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(got, "|"); g != `WARNING 25001 there is already a transaction in progress` {
		t.Errorf("BEGIN in a block: got %s", g)
	}
	_ = tx.Rollback(ctx(t))
}
