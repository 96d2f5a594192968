package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxRecords reads records through pgx: with the record type's OID,
// pgx asks for the binary format and decodes each field by its own OID;
// in the simple protocol the text form arrives as PostgreSQL prints it.
func TestPgxRecords(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE rt (id int PRIMARY KEY, v text, n numeric)`)
	mustExec(t, c, `INSERT INTO rt VALUES (1, 'a b', 1.5), (2, NULL, NULL)`)
	q := `SELECT ROW(1, 'x', NULL, true, 2.5::float8, ARRAY[1, 2], ROW(3)), rt FROM rt ORDER BY id`
	for mode, want := range map[pgx.QueryExecMode]string{
		// Binary: pgx decodes the fields.
		pgx.QueryExecModeCacheStatement: "[[1 x <nil> true 2.5 [1 2] [3]] [1 a b {15 -1 false finite true}]]|[[1 x <nil> true 2.5 [1 2] [3]] [2 <nil> <nil>]]|",
		// Text: pgx keeps PostgreSQL's text form.
		pgx.QueryExecModeExec: `[(1,x,,t,2.5,"{1,2}","(3)") (1,"a b",1.5)]|[(1,x,,t,2.5,"{1,2}","(3)") (2,,)]|`,
	} {
		rows, err := c.Query(ctx(t), q, mode)
		if err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var got string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatalf("mode %v: %v", mode, err)
			}
			got += fmt.Sprintf("%v|", vals)
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if oid := rows.FieldDescriptions()[0].DataTypeOID; oid != 2249 {
			t.Errorf("mode %v: OID %d", mode, oid)
		}
		if got != want {
			t.Errorf("mode %v:\ngot  %s\nwant %s", mode, got, want)
		}
	}
	var a, b string
	if err := c.QueryRow(ctx(t), `SELECT ROW(1, 'x y', NULL), rt FROM rt WHERE id = 1`, pgx.QueryExecModeSimpleProtocol).Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	if a != `(1,"x y",)` || b != `(1,"a b",1.5)` {
		t.Errorf("text: %s %s", a, b)
	}
}
