package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/deltaview/deltaview"
)

// TestPgxRanges reads and writes ranges and multiranges through pgx: the
// types have PostgreSQL's OIDs, so pgx decodes them from the binary
// format, and range and multirange parameters sent in binary are read
// back, in every query mode.
func TestPgxRanges(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TABLE d (id int PRIMARY KEY, r int4range, n numrange, w daterange)`); err != nil {
		t.Fatal(err)
	}
	in := pgtype.Range[pgtype.Int4]{Lower: pgtype.Int4{Int32: 3, Valid: true}, LowerType: pgtype.Exclusive, UpperType: pgtype.Unbounded, Valid: true}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO d VALUES ($1, $2, '[1.5,2]', '(,2020-01-01]')`, mode, i, in); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var r pgtype.Range[pgtype.Int4]
		var s string
		if err := c.QueryRow(ctx(t), `SELECT r, r::text FROM d WHERE id = $1`, mode, i).Scan(&r, &s); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if got := fmt.Sprint(r.Lower.Int32, r.LowerType, r.UpperType, " ", s); got != "4 i U [4,)" {
			t.Errorf("mode %v: got %s", mode, got)
		}
	}
	var n pgtype.Range[pgtype.Numeric]
	var w pgtype.Range[pgtype.Date]
	var e pgtype.Range[pgtype.Int8]
	if err := c.QueryRow(ctx(t), `SELECT n, w, 'empty'::int8range FROM d WHERE id = 0`).Scan(&n, &w, &e); err != nil {
		t.Fatal(err)
	}
	lo, _ := n.Lower.Float64Value()
	if got := fmt.Sprint(lo.Float64, n.LowerType, n.UpperType, " ", w.LowerType, w.Upper.Time.Format("2006-01-02"), w.UpperType, " ", e.LowerType, e.UpperType); got != "1.5 i i U2020-01-02e E E" {
		t.Errorf("got %s", got)
	}
	var m pgtype.Multirange[pgtype.Range[pgtype.Int4]]
	if err := c.QueryRow(ctx(t), `SELECT $1::int4multirange + '{[-10,-5)}'`, pgtype.Multirange[pgtype.Range[pgtype.Int4]]{in}).Scan(&m); err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 {
		t.Fatalf("multirange of %d ranges", len(m))
	}
	if got := fmt.Sprint(m[0].Lower.Int32, m[0].Upper.Int32, m[1].Lower.Int32, m[1].UpperType); got != "-10 -5 4 U" {
		t.Errorf("multirange %s", got)
	}
	rows, err := c.Query(ctx(t), `SELECT r, n, w, '[1,2)'::int8range, 'empty'::tsrange, 'empty'::tstzrange, ARRAY[r], '{}'::datemultirange FROM d`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[3904 3906 3912 3926 3908 3910 3905 4535]" {
		t.Errorf("OIDs %s", got)
	}
}
