package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxInternalChar reads "char" values (a catalog's relkind, a table's
// column) through pgx in the text and binary formats: the columns have
// "char"'s OID, 18, so pgx decodes a byte, and a parameter compared with
// relkind is sent as one.
func TestPgxInternalChar(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE f (id int PRIMARY KEY, c "char"); INSERT INTO f VALUES (1, '\303'), (2, 'z')`); err != nil {
		t.Fatal(err)
	}
	c := connect(t, startServer(t, db))
	q := `SELECT relkind, relpersistence, (SELECT c FROM f WHERE id = 1), (SELECT c FROM f WHERE id = 2)
		FROM pg_class WHERE relname = 'f' AND relkind = $1`
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var kind, pers byte
		var high, z string
		if err := c.QueryRow(ctx(t), q, mode, "r").Scan(&kind, &pers, &high, &z); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		want := `r p "\\303" z` // charout's escape, in the text format
		if mode == pgx.QueryExecModeCacheStatement {
			want = `r p "\xc3" z` // the byte itself, in the binary format
		}
		if got := fmt.Sprintf("%c %c %q %s", kind, pers, high, z); got != want {
			t.Errorf("mode %v: got %s", mode, got)
		}
	}
	rows, err := c.Query(ctx(t), `SELECT relkind, c, ARRAY[c] FROM pg_class, f WHERE relname = 'f' AND id = 2`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[18 18 1002]" {
		t.Errorf("OIDs %s", got)
	}
}
