package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxXML reads and writes xml through pgx in every query mode: the
// type has PostgreSQL's OID (142, its array 143), a value reads as the
// text PostgreSQL prints, and a parameter is checked as XML content.
func TestPgxXML(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TABLE h (id int PRIMARY KEY, x xml)`); err != nil {
		t.Fatal(err)
	}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES ($1, $2)`, mode, i, `<?xml version="1.0"?><a n="1">é</a>`); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var x, s string
		if err := c.QueryRow(ctx(t), `SELECT x, xmlserialize(content x AS text) FROM h WHERE id = $1`, mode, i).Scan(&x, &s); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if got := x + " " + s; got != `<a n="1">é</a> <?xml version="1.0"?><a n="1">é</a>` {
			t.Errorf("mode %v: got %s", mode, got)
		}
		if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES ($1, $2)`, mode, 10+i, `<a>`); err == nil {
			t.Errorf("mode %v: ill-formed xml accepted", mode)
		}
	}
	rows, err := c.Query(ctx(t), `SELECT x, ARRAY[x] FROM h`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[142 143]" {
		t.Errorf("OIDs %s", got)
	}
}
