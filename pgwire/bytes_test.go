package pgwire_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/deltaview/deltaview"
)

// TestPgxBytesTypes reads bytea, bit strings and uuid through pgx in the
// text and binary formats, and sends them as parameters: each has
// PostgreSQL's OID, so pgx decodes a bytea into []byte, a uuid into 16
// bytes and a bit string into its bits.
func TestPgxBytesTypes(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE bx (id int PRIMARY KEY, b bytea, u uuid, f bit(10), v varbit)`)
	q := `SELECT '\x00ff41'::bytea, ''::bytea, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, B'1011000011', B'101'::varbit, ARRAY['\x01'::bytea]`
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var (
			b, empty []byte
			u        pgtype.UUID
			f, v     pgtype.Bits
			arr      [][]byte
		)
		if err := c.QueryRow(ctx(t), q, mode).Scan(&b, &empty, &u, &f, &v, &arr); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		got := fmt.Sprintf("%x %d %x %x/%d %x/%d %x", b, len(empty), u.Bytes, f.Bytes, f.Len, v.Bytes, v.Len, arr)
		if want := "00ff41 0 a0eebc999c0b4ef8bb6d6bb9bd380a11 b0c0/10 a0/3 [01]"; got != want {
			t.Errorf("mode %v:\ngot  %s\nwant %s", mode, got, want)
		}

		mustExec(t, c, `DELETE FROM bx`)
		in := []byte{0, '\\', 0xff}
		uid := pgtype.UUID{Bytes: [16]byte{0xa0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff}, Valid: true}
		bits := pgtype.Bits{Bytes: []byte{0xff, 0x40}, Len: 10, Valid: true}
		vb := pgtype.Bits{Bytes: []byte{0x80}, Len: 1, Valid: true}
		if _, err := c.Exec(ctx(t), `INSERT INTO bx VALUES ($1, $2, $3, $4, $5)`, mode, 1, in, uid, bits, vb); err != nil {
			t.Fatalf("mode %v: insert: %v", mode, err)
		}
		var back []byte
		var text string
		if err := c.QueryRow(ctx(t), `SELECT b, u::text || ' ' || f::text || ' ' || v::text FROM bx WHERE u = $1 AND b = $2`, mode, uid, in).Scan(&back, &text); err != nil {
			t.Fatalf("mode %v: select: %v", mode, err)
		}
		if !bytes.Equal(back, in) || text != "a0010203-0405-0607-0809-0a0b0c0d0eff 1111111101 1" {
			t.Errorf("mode %v: %x %q", mode, back, text)
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
	if got := fmt.Sprint(oids); got != "[17 17 2950 1560 1562 1001]" {
		t.Errorf("OIDs %s", got)
	}
}
