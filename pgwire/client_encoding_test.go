package pgwire_test

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// clientEncodingScript is psql's input in LATIN1, then EUC_JP: queries,
// column names, values, errors, and rows one of which the encoding
// lacks (the rows before it are sent, then the error), notices and
// errors whose text it lacks (the statement fails with 22P05).
var clientEncodingScript = "SHOW client_encoding;\n" +
	"SELECT 'caf\xe9' AS \"n\xe9\", length('caf\xe9'), '\xe2\x82\xac'::text;\n" +
	"SELECT x FROM (VALUES ('a'), (chr(8364)), ('b')) v(x);\n" +
	"SELECT 'after';\n" +
	"BEGIN;\nSELECT chr(8364);\nSELECT 1;\nROLLBACK;\n" +
	"SELECT 1/0 AS \"\xe9\";\n" +
	"DO $$BEGIN RAISE NOTICE 'n %', chr(257); END$$;\n" +
	"DO $$BEGIN RAISE NOTICE 'n %', chr(233); RAISE EXCEPTION 'x' USING DETAIL = chr(257); END$$;\n" +
	"SELECT chr(257)::int;\n" +
	"SET client_encoding = 'EUC_JP';\n" +
	"SELECT '\xa4\xa2' AS \"\xb4\xc1\", convert_to('\xa4\xa2', 'UTF8'), chr(26085);\n" +
	"SELECT '\xa4';\n" +
	"SELECT 'ok';\n" +
	"SET client_encoding = 'SJIS';\n" +
	"SELECT '\x82\xa0' || chr(65377);\n" +
	"SET client_encoding = 'MULE_INTERNAL';\n"

// TestClientEncodingPsql runs clientEncodingScript through psql with
// PGCLIENTENCODING=LATIN1 against deltaview and PostgreSQL: psql's
// output must be the same, byte for byte.
func TestClientEncodingPsql(t *testing.T) {
	psql := pgtest.Psql(t)
	run := func(conn string) []byte {
		cmd := exec.Command(psql, "-X", "-d", conn)
		cmd.Env = append(cmd.Environ(), "PGCLIENTENCODING=LATIN1")
		cmd.Stdin = bytes.NewReader([]byte(clientEncodingScript))
		out, _ := cmd.CombinedOutput()
		return out
	}
	got := run(connString(startServer(t, deltaview.OpenWith(deltaview.Options{}))))
	want := run(pgtest.Start(t).ConnString("postgres"))
	if !bytes.Equal(got, want) {
		t.Fatalf("deltaview:\n%q\nPostgreSQL:\n%q", got, want)
	}
}

// TestClientEncodingPgx sets client_encoding at startup through pgx
// and sends a query and parameters in WIN1252, in text format, and reads
// its rows back, on deltaview and on PostgreSQL.
func TestClientEncodingPgx(t *testing.T) {
	type outcome struct {
		rows [][]byte
		code string
	}
	run := func(connString string) []outcome {
		cfg, err := pgx.ParseConfig(connString)
		if err != nil {
			t.Fatal(err)
		}
		cfg.RuntimeParams["client_encoding"] = "WIN1252"
		cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
		c, err := pgx.ConnectConfig(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		if got := c.PgConn().ParameterStatus("client_encoding"); got != "WIN1252" {
			t.Errorf("ParameterStatus client_encoding %q", got)
		}
		var out []outcome
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{"SELECT '\x80' || $1::text, length($1::text)", []any{"caf\xe9"}},
			{"SELECT $1::text", []any{"\x81"}},
			{"SELECT chr(8364), chr(256)", nil},
		} {
			res := c.PgConn().ExecParams(context.Background(), q.sql, textParams(q.args), nil, nil, nil).Read()
			var o outcome
			var pe *pgconn.PgError
			if errors.As(res.Err, &pe) {
				o.code = pe.Code
			}
			for _, r := range res.Rows {
				o.rows = append(o.rows, r...)
			}
			out = append(out, o)
		}
		return out
	}
	got := run(connString(startServer(t, deltaview.OpenWith(deltaview.Options{}))))
	want := run(pgtest.Start(t).ConnString("postgres"))
	for i := range want {
		if got[i].code != want[i].code || len(got[i].rows) != len(want[i].rows) {
			t.Fatalf("query %d: deltaview %q, PostgreSQL %q", i, got[i], want[i])
		}
		for j := range want[i].rows {
			if !bytes.Equal(got[i].rows[j], want[i].rows[j]) {
				t.Fatalf("query %d: deltaview %q, PostgreSQL %q", i, got[i], want[i])
			}
		}
	}
}

func textParams(args []any) [][]byte {
	var out [][]byte
	for _, a := range args {
		out = append(out, []byte(a.(string)))
	}
	return out
}
