package pgwire_test

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestCursorMove checks MOVE over a query's cursor, as PostgreSQL runs
// it: the rows FETCH would return are skipped, the tag counts them, and
// the next FETCH starts after them.
func TestCursorMove(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
		mustExec(t, c, `BEGIN`)
		mustExec(t, c, `DECLARE c CURSOR FOR SELECT g FROM generate_series(1, 7) g`)
		steps := []struct{ q, tag string }{
			{`MOVE c`, "MOVE 1"},
			{`MOVE 2 IN c`, "MOVE 2"},
			{`MOVE NEXT FROM c`, "MOVE 1"},
		}
		for _, s := range steps {
			tag, err := c.PgConn().Exec(ctx(t), s.q).ReadAll()
			if err != nil || len(tag) != 1 || tag[0].CommandTag.String() != s.tag {
				t.Fatalf("%v %s: %v %v, want %s", mode, s.q, tag, err, s.tag)
			}
		}
		var g int32
		if err := c.QueryRow(ctx(t), `FETCH c`, mode).Scan(&g); err != nil || g != 5 {
			t.Fatalf("%v: FETCH after MOVE: %d %v, want 5", mode, g, err)
		}
		tag, err := c.Exec(ctx(t), `MOVE ALL FROM c`, mode)
		if err != nil || tag.String() != "MOVE 2" {
			t.Fatalf("%v: MOVE ALL: %q %v, want MOVE 2", mode, tag, err)
		}
		if tag, err = c.Exec(ctx(t), `MOVE c`, mode); err != nil || tag.String() != "MOVE 0" {
			t.Fatalf("%v: MOVE at the end: %q %v, want MOVE 0", mode, tag, err)
		}
		if _, err := c.Exec(ctx(t), `MOVE nosuch`, mode); err == nil {
			t.Fatalf("%v: MOVE of no cursor succeeded", mode)
		}
		mustExec(t, c, `ROLLBACK`)
	}
}
