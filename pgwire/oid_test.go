package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxOid reads and writes oids through pgx, and reads the reg* types:
// they have PostgreSQL's OIDs (oid 26, regclass 2205, regtype 2206, oid[]
// 1028); an oid goes both ways in binary as an unsigned 32-bit integer, a
// reg* value reads as its name.
func TestPgxOid(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TABLE h (id int PRIMARY KEY, o oid)`); err != nil {
		t.Fatal(err)
	}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES ($1, $2)`, mode, i, uint32(4294967295-i)); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var o uint32
		if err := c.QueryRow(ctx(t), `SELECT o FROM h WHERE id = $1`, mode, i).Scan(&o); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if o != uint32(4294967295-i) {
			t.Errorf("mode %v: got %d", mode, o)
		}
	}
	rows, err := c.Query(ctx(t), `SELECT 'h'::regclass, 'h'::regclass::oid, 'int4'::regtype, ARRAY[o] FROM h WHERE id = 0`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	if got := fmt.Sprint(oids); got != "[2205 26 2206 1028]" {
		t.Errorf("OIDs %s", got)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	var rel, typ string
	var relOID uint32
	var arr []uint32
	if err := rows.Scan(&rel, &relOID, &typ, &arr); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if rel != "h" || relOID < 16384 || typ != "integer" || fmt.Sprint(arr) != "[4294967295]" {
		t.Errorf("got %q %d %q %v", rel, relOID, typ, arr)
	}
	var attrelid uint32
	if err := c.QueryRow(ctx(t), `SELECT attrelid FROM pg_attribute WHERE attrelid = $1 AND attname = 'o'`, relOID).Scan(&attrelid); err != nil || attrelid != relOID {
		t.Errorf("pg_attribute by a binary oid parameter: %d, %v", attrelid, err)
	}
}

// TestPgxRegOperator reads regoper and regoperator over the wire with
// PostgreSQL's type oids (2203, 2204; their arrays 2208, 2209), as
// PostgreSQL sends them (they were sent as text, oid 25).
func TestPgxRegOperator(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	rows, err := c.Query(ctx(t), `SELECT 551::regoper, '+(int4,int4)'::regoperator, ARRAY[551::regoper], ARRAY['+(int4,int4)'::regoperator], '+(int4,int4)'::regoperator::oid`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	if got := fmt.Sprint(oids); got != "[2203 2204 2208 2209 26]" {
		t.Errorf("OIDs %s", got)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	vals, err := rows.Values()
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	// pgx reads the arrays of types it does not know as text.
	if got := fmt.Sprint(vals); got != `[pg_catalog.+ +(integer,integer) {pg_catalog.+} {"+(integer,integer)"} 551]` {
		t.Errorf("values %s", got)
	}
}
