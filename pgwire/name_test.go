package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxName reads name values (a catalog's relname, a table's column,
// an array of name) through pgx in the text and binary formats: the
// columns have name's OID, 19, and name[]'s, 1003; the binary format is
// the bytes, as namesend sends them; a parameter compared with relname is
// read in both formats.
func TestPgxName(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE idents (id int PRIMARY KEY, n name, m name[]); INSERT INTO idents VALUES (1, 'héllo', '{a,b}')`); err != nil {
		t.Fatal(err)
	}
	c := connect(t, startServer(t, db))
	q := `SELECT relname, n, m FROM pg_class, idents WHERE relname = $1 AND id = 1`
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var rel, n string
		var m []string
		if err := c.QueryRow(ctx(t), q, mode, "idents").Scan(&rel, &n, &m); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if got := fmt.Sprintf("%s|%s|%v", rel, n, m); got != "idents|héllo|[a b]" {
			t.Errorf("mode %v: got %s", mode, got)
		}
	}
	rows, err := c.Query(ctx(t), q, "idents")
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[19 19 1003]" {
		t.Errorf("OIDs %s", got)
	}
	res := c.PgConn().ExecParams(ctx(t), `SELECT n FROM idents`, nil, nil, nil, []int16{1}).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := string(res.Rows[0][0]); got != "héllo" {
		t.Errorf("binary name %q", got)
	}
}
