package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxJSON reads and writes json and jsonb through pgx in the text and
// binary formats: the types have PostgreSQL's OIDs, so pgx decodes them
// into Go values, and a jsonb parameter sent in binary is read back.
func TestPgxJSON(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TABLE d (id int PRIMARY KEY, j jsonb, k json)`); err != nil {
		t.Fatal(err)
	}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO d VALUES ($1, $2, $3)`, mode, i, `{"b": 1, "a": [1, 2]}`, `{"x" : 1}`); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var j map[string]any
		var k string
		var raw []byte
		if err := c.QueryRow(ctx(t), `SELECT j, k::text, j FROM d WHERE id = $1`, mode, i).Scan(&j, &k, &raw); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if got := fmt.Sprint(j, " ", k, " ", string(raw)); got != `map[a:[1 2] b:1] {"x" : 1} {"a": [1, 2], "b": 1}` {
			t.Errorf("mode %v: got %s", mode, got)
		}
	}
	rows, err := c.Query(ctx(t), `SELECT j, k, ARRAY[j], ARRAY[k] FROM d`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[3802 114 3807 199]" {
		t.Errorf("OIDs %s", got)
	}
}
