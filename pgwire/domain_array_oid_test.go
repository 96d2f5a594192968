package pgwire_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestDomainArrayRowDescription reads columns of an array of a domain:
// as PostgreSQL's, the row description gives the oid of the array type
// _d (not the base array type's), where a column of the domain itself
// gives its base type's, and the binary form of a value names d as its
// element type. Each field's oid is printed as the type it is
// on that server (pg_type's _d, or int4), so the servers' own oids can
// differ; compared with PostgreSQL when one is installed.
func TestDomainArrayRowDescription(t *testing.T) {
	conns := map[string]string{"deltaview": connString(startServer(t, deltaview.Open()))}
	if _, err := pgtest.FindBinDir(); err == nil || os.Getenv("CI") == "true" {
		conns["PostgreSQL"] = pgtest.Start(t).ConnString("postgres")
	}
	query := `SELECT a, b, a[1:1], a[1], '{1}'::dwo_pos[], a::int[], array_agg(b) OVER (), COALESCE(a, '{1}'::int[]), COALESCE('{1}'::int[], a)
		FROM dwo_t`
	sub := `SELECT s.a, s.x FROM (SELECT a, array_agg(b) OVER () AS x FROM dwo_t) s UNION ALL SELECT a, a FROM dwo_v`
	results := map[string]string{}
	for name, cs := range conns {
		c, err := pgx.Connect(ctx(t), cs)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		mustExec(t, c, `CREATE DOMAIN dwo_pos AS int CHECK (VALUE > 0)`)
		mustExec(t, c, `CREATE TABLE dwo_t (a dwo_pos[], b dwo_pos)`)
		mustExec(t, c, `INSERT INTO dwo_t VALUES ('{1,2}', 3)`)
		mustExec(t, c, `CREATE MATERIALIZED VIEW dwo_v AS SELECT a FROM dwo_t`)
		var arr uint32
		if err := c.QueryRow(ctx(t), `SELECT 'dwo_pos[]'::regtype::oid`).Scan(&arr); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheDescribe} {
			for _, q := range []string{query, sub, `INSERT INTO dwo_t VALUES ('{4}', 5) RETURNING a, b`} {
				rows, err := c.Query(ctx(t), q, mode)
				if err != nil {
					t.Fatal(err)
				}
				var desc []string
				for _, f := range rows.FieldDescriptions() {
					typ := fmt.Sprint(f.DataTypeOID)
					switch f.DataTypeOID {
					case arr:
						typ = "_dwo_pos"
					case 23:
						typ = "int4"
					case 1007:
						typ = "_int4"
					}
					desc = append(desc, f.Name+":"+typ)
				}
				for rows.Next() {
					if _, err := rows.Values(); err != nil {
						t.Fatal(err)
					}
				}
				rows.Close()
				if err := rows.Err(); err != nil {
					t.Fatal(err)
				}
				out = append(out, strings.Join(desc, " "))
			}
		}
		// The binary form of a value of d[] names d as its element type
		// (the third word of its header).
		var elem uint32
		if err := c.QueryRow(ctx(t), `SELECT 'dwo_pos'::regtype::oid`).Scan(&elem); err != nil {
			t.Fatal(err)
		}
		res := c.PgConn().ExecParams(ctx(t), `SELECT a FROM dwo_t LIMIT 1`, nil, nil, nil, []int16{1}).Read()
		if res.Err != nil || len(res.Rows) != 1 || len(res.Rows[0][0]) < 12 {
			t.Fatalf("%s: %v %v", name, res.Err, res.Rows)
		}
		if got := binary.BigEndian.Uint32(res.Rows[0][0][8:12]); got != elem {
			out = append(out, fmt.Sprintf("element type %d, not dwo_pos", got))
		}
		results[name] = strings.Join(out, "\n")
	}
	want := strings.Repeat("a:_dwo_pos b:int4 a:_dwo_pos a:int4 dwo_pos:_dwo_pos a:_int4 array_agg:_dwo_pos coalesce:_dwo_pos coalesce:_int4\n"+
		"a:_dwo_pos x:_dwo_pos\n"+
		"a:_dwo_pos b:int4\n", 2)
	want = strings.TrimSuffix(want, "\n")
	for name, got := range results {
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
