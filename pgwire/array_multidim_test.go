package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/deltaview/deltaview"
)

// TestPgxMultidimArrays reads and sends arrays of two dimensions with
// lower bounds other than 1, in the text and binary formats: pgx sees
// PostgreSQL's dimensions, and a parameter keeps them.
func TestPgxMultidimArrays(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	mustExec(t, c, `CREATE TABLE md (id int PRIMARY KEY, a int[])`)
	param := pgtype.Array[int32]{Elements: []int32{1, 2, 3, 4, 5, 6}, Valid: true,
		Dims: []pgtype.ArrayDimension{{Length: 2, LowerBound: 0}, {Length: 3, LowerBound: 1}}}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var a, b pgtype.Array[pgtype.Int4]
		if err := c.QueryRow(ctx(t), `SELECT '[0:1][2:3]={{1,2},{3,NULL}}'::int[], ARRAY[[[7]]]`, mode).Scan(&a, &b); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		got := fmt.Sprint(a.Dims, len(a.Elements), a.Elements[2].Int32, a.Elements[3].Valid, b.Dims, b.Elements[0].Int32)
		if want := "[{2 0} {2 2}] 4 3 false [{1 1} {1 1} {1 1}] 7"; got != want {
			t.Errorf("mode %v: got %s, want %s", mode, got, want)
		}
		mustExec(t, c, `DELETE FROM md`)
		if _, err := c.Exec(ctx(t), `INSERT INTO md VALUES (1, $1)`, mode, param); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var text string
		if err := c.QueryRow(ctx(t), `SELECT a::text || ' ' || a[1][3] FROM md`, mode).Scan(&text); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if want := "[0:1][1:3]={{1,2,3},{4,5,6}} 6"; text != want {
			t.Errorf("mode %v: got %s, want %s", mode, text, want)
		}
	}
}
