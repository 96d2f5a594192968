package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxEnums writes and reads an enum column through pgx in every
// query mode: the type has the OID CREATE TYPE gave it (16384 on, as
// PostgreSQL's user types), its array the next, and pgx, which knows
// neither, reads the labels as text.
func TestPgxEnums(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy'); CREATE TABLE h (id int PRIMARY KEY, m mood)`); err != nil {
		t.Fatal(err)
	}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES ($1, $2)`, mode, i, []string{"sad", "ok", "happy"}[i]); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var m string
		if err := c.QueryRow(ctx(t), `SELECT m FROM h WHERE m = $1`, mode, []string{"sad", "ok", "happy"}[i]).Scan(&m); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if m != []string{"sad", "ok", "happy"}[i] {
			t.Errorf("mode %v: got %q", mode, m)
		}
	}
	if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES (9, $1)`, "nope"); err == nil {
		t.Error("a label the type lacks was written")
	}
	rows, err := c.Query(ctx(t), `SELECT m, ARRAY[m] FROM h ORDER BY m DESC`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	var got []string
	for rows.Next() {
		var m, a string
		if err := rows.Scan(&m, &a); err != nil {
			t.Fatal(err)
		}
		got = append(got, m+" "+a)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprint(oids, got); s != "[16384 16385] [happy {happy} ok {ok} sad {sad}]" {
		t.Errorf("got %s", s)
	}
}
