package pgwire_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxMoney reads and writes money through pgx: it has PostgreSQL's
// OIDs (790, its array 791), prints as text, and its binary format, the
// cents as a bigint, goes both ways.
func TestPgxMoney(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TABLE h (id int PRIMARY KEY, m money)`); err != nil {
		t.Fatal(err)
	}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES ($1, $2)`, mode, i, "-$1,234.567"); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var s string
		if err := c.QueryRow(ctx(t), `SELECT m FROM h WHERE id = $1`, mode, i).Scan(&s); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if s != "-$1,234.57" {
			t.Errorf("mode %v: got %s", mode, s)
		}
	}
	rows, err := c.Query(ctx(t), `SELECT m, ARRAY[m] FROM h`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[790 791]" {
		t.Errorf("OIDs %s", got)
	}

	// Binary both ways: a parameter of 12345 cents, read back in binary
	// and as text.
	param := binary.BigEndian.AppendUint64(nil, 12345)
	res := c.PgConn().ExecParams(ctx(t), `SELECT $1::money, $1::money::text`, [][]byte{param}, []uint32{790}, []int16{1}, []int16{1, 0}).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := res.Rows[0]; binary.BigEndian.Uint64(got[0]) != 12345 || string(got[1]) != "$123.45" {
		t.Errorf("binary round trip: got %x %q", got[0], got[1])
	}
	res = c.PgConn().ExecParams(ctx(t), `SELECT $1::money`, [][]byte{{1, 2}}, []uint32{790}, []int16{1}, nil).Read()
	if res.Err == nil {
		t.Error("a 2-byte binary money parameter was accepted")
	}
}
