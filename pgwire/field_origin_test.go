package pgwire_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// fieldOriginSetup makes the relations fieldOriginQueries read.
var fieldOriginSetup = []string{
	"CREATE TABLE fo_t (a serial PRIMARY KEY, b text NOT NULL, c numeric)",
	"CREATE TABLE fo_u (a int, d text)",
	"CREATE VIEW fo_v AS SELECT a, b, a + 1 AS x FROM fo_t",
	"CREATE MATERIALIZED VIEW fo_m AS SELECT a, c FROM fo_t",
	"INSERT INTO fo_t (b, c) VALUES ('x', 1)",
}

// fieldOriginQueries are statements whose RowDescription names (or not)
// the table column each field is taken from.
var fieldOriginQueries = []string{
	"SELECT a, b AS bee, c, a + 1 AS e, 'k' AS k FROM fo_t",
	"SELECT * FROM fo_t",
	"SELECT t.* FROM fo_t t",
	"SELECT fo_t.c, fo_t.a FROM fo_t",
	"SELECT a::text, (c) FROM fo_t",
	"SELECT * FROM fo_v",
	"SELECT * FROM fo_m",
	"SELECT x.b, y.d FROM fo_t x JOIN fo_u y ON x.a = y.a",
	"SELECT * FROM fo_t JOIN fo_u USING (a)",
	"SELECT * FROM fo_t FULL JOIN fo_u USING (a)",
	"SELECT * FROM fo_t LEFT JOIN fo_u USING (a)",
	"SELECT s.b FROM (SELECT b, a + 1 AS n FROM fo_t) s",
	"SELECT * FROM (SELECT b, a + 1 AS n FROM fo_t) s",
	"WITH w AS (SELECT c, b FROM fo_t) SELECT * FROM w",
	"SELECT a FROM fo_t UNION SELECT a FROM fo_u",
	"SELECT DISTINCT b FROM fo_t ORDER BY b LIMIT 1",
	"SELECT b, count(*) FROM fo_t GROUP BY b",
	"SELECT relname, oid FROM pg_class WHERE relname = 'fo_t'",
	"SELECT (SELECT b FROM fo_t LIMIT 1)",
	"SELECT * FROM generate_series(1, 2) g",
	"SELECT * FROM (VALUES (1)) v(z)",
	"INSERT INTO fo_u VALUES (5, 'e') RETURNING a, d, a + 1",
	"UPDATE fo_u SET d = 'f' WHERE a = 5 RETURNING *",
	"UPDATE fo_u SET d = 'g' FROM fo_t WHERE fo_u.a = 5 RETURNING fo_t.b, fo_u.d, (SELECT 1)",
	"DELETE FROM fo_u WHERE a = 5 RETURNING d",
	"INSERT INTO fo_v (b) VALUES ('v') RETURNING b, x",
}

// fieldOrigins runs each of queries through both protocols and returns,
// for each field, its name with the relation and column number it is taken
// from, as the server's RowDescription says.
func fieldOrigins(t *testing.T, c *pgx.Conn, queries []string) string {
	t.Helper()
	var out strings.Builder
	for _, q := range queries {
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeDescribeExec} {
			rows, err := c.Query(ctx(t), q, mode)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			fds := append(rows.FieldDescriptions()[:0:0], rows.FieldDescriptions()...)
			rows.Close()
			if err := rows.Err(); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			fmt.Fprintf(&out, "%s:", q)
			for _, fd := range fds {
				rel := "-"
				if fd.TableOID != 0 {
					if err := c.QueryRow(ctx(t), "SELECT relname::text FROM pg_class WHERE oid = $1", fd.TableOID).Scan(&rel); err != nil {
						t.Fatalf("relation %d of %s: %v", fd.TableOID, q, err)
					}
				}
				fmt.Fprintf(&out, " %s=%s.%d", fd.Name, rel, int16(fd.TableAttributeNumber))
			}
			out.WriteString("\n")
		}
	}
	return out.String()
}

// TestFieldOrigins checks that RowDescription names the table and column
// of each field taken straight from one, as PostgreSQL's does: JDBC's
// ResultSetMetaData (getTableName, isNullable, isAutoIncrement) reads them.
func TestFieldOrigins(t *testing.T) {
	pg := pgtest.Start(t).Conn(t)
	dv := connect(t, startServer(t, deltaview.Open()))
	for _, s := range fieldOriginSetup {
		mustExec(t, pg, s)
		mustExec(t, dv, s)
	}
	want, got := fieldOrigins(t, pg, fieldOriginQueries), fieldOrigins(t, dv, fieldOriginQueries)
	if got != want {
		t.Errorf("deltaview's fields\n%s\nPostgreSQL's\n%s", got, want)
	}
}
