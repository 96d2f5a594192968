package pgwire_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxArrays reads arrays through pgx in the text and binary formats:
// each array type has PostgreSQL's OID, so pgx decodes it into a slice.
func TestPgxArrays(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	q := `SELECT ARRAY[1, NULL, 3], ARRAY[1::bigint], ARRAY['a b', NULL, '"'], ARRAY[1.5, 2], ARRAY[1.5::float8],
		ARRAY[true, false], ARRAY[date '2024-02-29'], ARRAY[timestamp '2024-01-01 10:00'], '{}'::int[]`
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var (
			i4  []*int32
			i8  []int64
			tx  []*string
			num []string
			f8  []float64
			bs  []bool
			ds  []time.Time
			tss []time.Time
			emp []int32
		)
		if err := c.QueryRow(ctx(t), q, mode).Scan(&i4, &i8, &tx, &num, &f8, &bs, &ds, &tss, &emp); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		str := func(p *string) string {
			if p == nil {
				return "NULL"
			}
			return *p
		}
		got := fmt.Sprintln(*i4[0], i4[1] == nil, *i4[2], i8, str(tx[0]), str(tx[1]), str(tx[2]), num, f8, bs,
			ds[0].Format("2006-01-02"), tss[0].Format("2006-01-02 15:04"), len(emp))
		want := "1 true 3 [1] a b NULL \" [1.5 2] [1.5] [true false] 2024-02-29 2024-01-01 10:00 0\n"
		if got != want {
			t.Errorf("mode %v:\ngot  %s\nwant %s", mode, got, want)
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
	if got := fmt.Sprint(oids); got != "[1007 1016 1009 1231 1022 1000 1182 1115 1007]" {
		t.Errorf("OIDs %s", got)
	}
}

// TestPgxArrayParams sends arrays as parameters: pgx encodes a slice in
// the array type the statement describes.
func TestPgxArrayParams(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE ap (id int PRIMARY KEY, a int[], s text[])`)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		mustExec(t, c, `DELETE FROM ap`)
		if _, err := c.Exec(ctx(t), `INSERT INTO ap VALUES ($1, $2, $3)`, mode, 1, []int32{1, 2}, []string{"x y", "z"}); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var n int32
		var back []string
		if err := c.QueryRow(ctx(t), `SELECT cardinality(a) + cardinality(s), s FROM ap WHERE $1 = ANY (a)`, mode, 2).Scan(&n, &back); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if n != 4 || fmt.Sprint(back) != "[x y z]" {
			t.Errorf("mode %v: %d %q", mode, n, back)
		}
	}
}
