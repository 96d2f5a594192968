package pgwire_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestOutRecordWire reads the records of functions of several OUT
// parameters, and of one returning record, over the wire: the row description says record (OID 2249),
// the binary format carries each field with its own OID, the text format
// PostgreSQL's text. Compared with PostgreSQL when one is installed.
func TestOutRecordWire(t *testing.T) {
	conns := map[string]string{"deltaview": connString(startServer(t, deltaview.Open()))}
	if _, err := pgtest.FindBinDir(); err == nil || os.Getenv("CI") == "true" {
		conns["PostgreSQL"] = pgtest.Start(t).ConnString("postgres")
	}
	q := `SELECT out_f(3), out_p(4), row_of(9), (out_f(5)).b, x.*, rec(7) FROM out_f(6) x`
	results := map[string]string{}
	for name, cs := range conns {
		c, err := pgx.Connect(ctx(t), cs)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		mustExec(t, c, `CREATE FUNCTION out_f(x int, OUT a int, OUT b text) LANGUAGE sql AS $$ SELECT x, 'x ' || x $$`)
		mustExec(t, c, `CREATE FUNCTION out_p(x int, OUT a numeric, OUT b int[]) LANGUAGE plpgsql AS $$ BEGIN a := x / 2.0; b := ARRAY[x, NULL]; END $$`)
		mustExec(t, c, `CREATE FUNCTION rec(k int) RETURNS record LANGUAGE sql AS $$ SELECT k, k::text $$`)
		mustExec(t, c, `CREATE FUNCTION row_of(k int, OUT s text, OUT n int) LANGUAGE sql AS $$ SELECT 'a', 1 WHERE k = 0 $$`)
		var got string
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
			rows, err := c.Query(ctx(t), q, mode)
			if err != nil {
				t.Fatalf("%s mode %v: %v", name, mode, err)
			}
			for _, f := range rows.FieldDescriptions() {
				got += fmt.Sprintf("%s:%d ", f.Name, f.DataTypeOID)
			}
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					t.Fatalf("%s mode %v: %v", name, mode, err)
				}
				got += fmt.Sprintf("%v|", vals)
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("%s mode %v: %v", name, mode, err)
			}
			got += "\n"
		}
		results[name] = got
	}
	want := "out_f:2249 out_p:2249 row_of:2249 b:25 a:23 b:25 rec:2249 [[3 x 3] [{20000000000000000 -16 false finite true} [4 <nil>]] <nil> x 5 6 x 6 [7 7]]|\n" +
		"out_f:2249 out_p:2249 row_of:2249 b:25 a:23 b:25 rec:2249 [(3,\"x 3\") (2.0000000000000000,\"{4,NULL}\") <nil> x 5 6 x 6 (7,7)]|\n" +
		"out_f:2249 out_p:2249 row_of:2249 b:25 a:23 b:25 rec:2249 [(3,\"x 3\") (2.0000000000000000,\"{4,NULL}\") <nil> x 5 6 x 6 (7,7)]|\n"
	for name, got := range results {
		if got != want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
	}
}
