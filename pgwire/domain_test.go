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

// TestDomainRowDescription reads columns and casts of domains: as
// PostgreSQL's, the row description gives the base type's OID and
// modifier (clients know no domains), and a violation arrives with its
// SQLSTATE. Compared with PostgreSQL when one is installed.
func TestDomainRowDescription(t *testing.T) {
	conns := map[string]string{"deltaview": connString(startServer(t, deltaview.Open()))}
	if _, err := pgtest.FindBinDir(); err == nil || os.Getenv("CI") == "true" {
		conns["PostgreSQL"] = pgtest.Start(t).ConnString("postgres")
	}
	results := map[string]string{}
	for name, cs := range conns {
		c, err := pgx.Connect(ctx(t), cs)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		mustExec(t, c, `CREATE DOMAIN qty AS int CHECK (VALUE >= 0)`)
		mustExec(t, c, `CREATE DOMAIN code AS varchar(4)`)
		mustExec(t, c, `CREATE DOMAIN ints AS int[]`)
		mustExec(t, c, `CREATE TABLE dt (q qty, c code, a ints)`)
		mustExec(t, c, `INSERT INTO dt VALUES (1, 'ab', '{1,2}')`)
		rows, err := c.Query(ctx(t), `SELECT q, c, a, 5::qty, q + 1 FROM dt`)
		if err != nil {
			t.Fatal(err)
		}
		var desc string
		for _, f := range rows.FieldDescriptions() {
			desc += fmt.Sprintf("%s:%d/%d ", f.Name, f.DataTypeOID, f.TypeModifier)
		}
		var q, sum int32
		var code string
		var a []int32
		var five int32
		for rows.Next() {
			if err := rows.Scan(&q, &code, &a, &five, &sum); err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
		_, err = c.Exec(ctx(t), `INSERT INTO dt VALUES ($1, 'x', NULL)`, -1)
		results[name] = fmt.Sprintf("%s| %d %s %v %d %d | %v", desc, q, code, a, five, sum, err)
	}
	want := "q:23/-1 c:1043/8 a:1007/-1 qty:23/-1 ?column?:23/-1 | 1 ab [1 2] 5 2 | " +
		`ERROR: value for domain qty violates check constraint "qty_check" (SQLSTATE 23514)`
	for name, got := range results {
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
