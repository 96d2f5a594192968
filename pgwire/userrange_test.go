package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxUserRanges writes and reads columns of a user range type and of
// its multirange type through pgx in every query mode: the types have the
// OIDs CREATE TYPE gave them (the range, its array, the multirange, its
// array, from 16384 on), and pgx, which knows none of them, reads their
// text.
func TestPgxUserRanges(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TYPE fr AS RANGE (subtype = float8); CREATE TABLE h (id int PRIMARY KEY, r fr, m fr_multirange)`); err != nil {
		t.Fatal(err)
	}
	ins := []string{"[1.5,2)", "(,3]", "empty"}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES ($1, $2, $3)`, mode, i, ins[i], "{"+ins[i]+"}"); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var r string
		if err := c.QueryRow(ctx(t), `SELECT r FROM h WHERE r = $1`, mode, ins[i]).Scan(&r); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if r != ins[i] {
			t.Errorf("mode %v: got %q", mode, r)
		}
	}
	if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES (9, $1)`, "[2,1)"); err == nil {
		t.Error("a range whose bounds are out of order was written")
	}
	rows, err := c.Query(ctx(t), `SELECT r, ARRAY[r], m, ARRAY[m] FROM h ORDER BY r`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	var got []string
	for rows.Next() {
		var r, a, m, ma string
		if err := rows.Scan(&r, &a, &m, &ma); err != nil {
			t.Fatal(err)
		}
		got = append(got, r+" "+a+" "+m+" "+ma)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := `[16384 16385 16386 16387] [empty {empty} {} {"{}"} (,3] {"(,3]"} {(,3]} {"{(,3]}"} [1.5,2) {"[1.5,2)"} {[1.5,2)} {"{[1.5,2)}"}]`
	if s := fmt.Sprint(oids, got); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}
