package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/deltaview/deltaview"
)

// TestPgxComposites writes and reads columns of a composite type, of an
// array of it and of a table's row type through pgx in every query mode:
// the composite type has the OIDs CREATE TYPE gave it (16384 on, as
// PostgreSQL's user types), and pgx, which knows neither, reads its text.
func TestPgxComposites(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TYPE pair AS (a int, b text); CREATE TABLE base (x int);
		CREATE TABLE h (id int PRIMARY KEY, p pair, ps pair[], r base)`); err != nil {
		t.Fatal(err)
	}
	vals := []string{`(1,x)`, `(2,"a b")`, `(,)`}
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES ($1, $2, ARRAY[$2::pair], ROW($1))`, mode, i, vals[i]); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var p string
		if err := c.QueryRow(ctx(t), `SELECT p FROM h WHERE p = $1::pair`, mode, vals[i]).Scan(&p); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if p != vals[i] {
			t.Errorf("mode %v: got %q", mode, p)
		}
	}
	if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES (9, $1)`, "(x,1)"); err == nil {
		t.Error("a malformed record was written")
	}
	rows, err := c.Query(ctx(t), `SELECT p, ps, r::text FROM h ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	var got []string
	for rows.Next() {
		var p, ps, r string
		if err := rows.Scan(&p, &ps, &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, p+" "+ps+" "+r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprint(oids, got); s != `[16384 16385 25] [(1,x) {"(1,x)"} (0) (2,"a b") {"(2,\"a b\")"} (1) (,) {"(,)"} (2)]` {
		t.Errorf("got %s", s)
	}
}

// TestPgxLoadComposite checks that pgx can describe a composite type and
// its array type from the catalogs (LoadType reads pg_type and the type's
// attributes in pg_attribute) and then decodes values of them in binary.
func TestPgxLoadComposite(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TYPE pair AS (a int, b text); CREATE TABLE h (id int PRIMARY KEY, p pair, ps pair[]);
		INSERT INTO h VALUES (1, ROW(7, 'x'), ARRAY[ROW(8, 'y')::pair])`); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pair", "_pair"} {
		typ, err := c.LoadType(ctx(t), name)
		if err != nil {
			t.Fatalf("LoadType(%s): %v", name, err)
		}
		c.TypeMap().RegisterType(typ)
	}
	var a, ea int32
	var b, eb string
	if err := c.QueryRow(ctx(t), `SELECT p, ps[1] FROM h`).Scan(pgtype.CompositeFields{&a, &b}, pgtype.CompositeFields{&ea, &eb}); err != nil {
		t.Fatal(err)
	}
	if a != 7 || b != "x" || ea != 8 || eb != "y" {
		t.Errorf("got %d %q %d %q", a, b, ea, eb)
	}
}
