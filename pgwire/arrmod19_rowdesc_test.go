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

// TestArrayModifierRowDescription: the row description of an array
// column with an element modifier gives the element's modifier, as
// PostgreSQL's does; an element read by subscript keeps it. Compared
// with PostgreSQL when one is installed.
func TestArrayModifierRowDescription(t *testing.T) {
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
		mustExec(t, c, `CREATE TABLE am (a varchar(3)[], b numeric(5,2)[])`)
		mustExec(t, c, `INSERT INTO am VALUES ('{abc}', '{1.234}')`)
		rows, err := c.Query(ctx(t), `SELECT a, b, b[1], '{101}'::bit(2)[] AS d FROM am`)
		if err != nil {
			t.Fatal(err)
		}
		var desc string
		for _, f := range rows.FieldDescriptions() {
			desc += fmt.Sprintf("%s:%d/%d ", f.Name, f.DataTypeOID, f.TypeModifier)
		}
		rows.Close()
		results[name] = desc
	}
	want := "a:1015/7 b:1231/327686 b:1700/327686 d:1561/2 "
	for name, got := range results {
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
