package pgwire_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
)

// TestPgxVectors reads the catalogs' int2vector and oidvector columns
// (pg_index.indkey, pg_proc.proargtypes) through pgx: their row
// description has the types' OIDs, 22 and 30; the text format is the
// numbers separated by spaces and the binary format is PostgreSQL's
// int2vectorsend and oidvectorsend (an array of one dimension from 0),
// byte for byte; a parameter of either type is read in both formats, and
// a binary one that is not an array from 0 is refused as
// int2vectorrecv refuses it.
func TestPgxVectors(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE k (a int, b int, c int, PRIMARY KEY (b, a))`); err != nil {
		t.Fatal(err)
	}
	c := connect(t, startServer(t, db))
	q := `SELECT i.indkey, p.proargtypes, i.indkey[1], e.proargtypes
		FROM pg_index i, pg_proc p, pg_proc e
		WHERE i.indrelid = 'k'::regclass AND p.oid = 'array_length(anyarray,integer)'::regprocedure AND e.oid = 'now()'::regprocedure`
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var key, args, empty string
		var k1 int16
		if err := c.QueryRow(ctx(t), q, mode).Scan(&key, &args, &k1, &empty); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if got := fmt.Sprintf("%s|%s|%d|%s", key, args, k1, empty); got != "2 1|2277 23|1|" {
			t.Errorf("mode %v: got %s", mode, got)
		}
	}
	rows, err := c.Query(ctx(t), q)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[22 30 21 30]" {
		t.Errorf("OIDs %s", got)
	}

	// The binary format, as PostgreSQL 15 sends it (int2vectorsend('2 1'),
	// oidvectorsend('2277 23'), int2vectorsend('')).
	res := c.PgConn().ExecParams(ctx(t), `SELECT indkey, '2277 23'::oidvector, ''::int2vector FROM pg_index WHERE indrelid = 'k'::regclass`,
		nil, nil, nil, []int16{1, 1, 1}).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	want := []string{
		"000000010000000000000015000000020000000000000002000200000002" + "0001",
		"00000001" + "00000000" + "0000001a" + "00000002" + "00000000" + "00000004" + "000008e5" + "00000004" + "00000017",
		"0000000100000000000000150000000000000000",
	}
	for i, w := range want {
		if got := hex.EncodeToString(res.Rows[0][i]); got != w {
			t.Errorf("binary column %d: %s, want %s", i, got, w)
		}
	}

	// Parameters: the binary format read back, and the text format.
	bin, _ := hex.DecodeString(want[0])
	res = c.PgConn().ExecParams(ctx(t), `SELECT $1::int2vector, ($1::int2vector)[0], $2::oidvector, ($2::oidvector)[1]`,
		[][]byte{bin, []byte(" 23  25")}, []uint32{22, 30}, []int16{1, 0}, []int16{0, 0, 0, 0}).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := fmt.Sprintf("%s|%s|%s|%s", res.Rows[0][0], res.Rows[0][1], res.Rows[0][2], res.Rows[0][3]); got != "2 1|2|23 25|25" {
		t.Errorf("parameters: %s", got)
	}
	// An int2[] from 1 is not an int2vector's binary form.
	from1, _ := hex.DecodeString("000000010000000000000015000000020000000100000002000200000002" + "0001")
	res = c.PgConn().ExecParams(ctx(t), `SELECT $1::int2vector`, [][]byte{from1}, []uint32{22}, []int16{1}, nil).Read()
	if pe := (*pgconn.PgError)(nil); !errors.As(res.Err, &pe) || pe.Code != "22P03" {
		t.Errorf("an array from 1 as int2vector: %v", res.Err)
	}
}
