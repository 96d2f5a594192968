package deltaview_test

import (
	"fmt"
	"testing"
)

// TestRenameRelationReopen checks that sequences, views and materialized
// views renamed by ALTER … RENAME TO come back from the file under their
// new names: a serial column's and an identity column's renamed sequence
// keeps its state and its column, the views over a renamed view read it
// by its new name, and a renamed materialized view keeps its rows.
func TestRenameRelationReopen(t *testing.T) {
	db := reopenedFileDB(t, "rename11.db", `CREATE TABLE rt (id serial PRIMARY KEY, a int, g int GENERATED ALWAYS AS IDENTITY);
CREATE VIEW rv AS SELECT id, a FROM rt;
CREATE VIEW rv_over AS SELECT a FROM rv WHERE a > 1;
CREATE MATERIALIZED VIEW rm AS SELECT a, count(*) AS n FROM rt GROUP BY a;
CREATE SEQUENCE rs START 10;
SELECT nextval('rs');
INSERT INTO rt (a) VALUES (1), (2);
ALTER SEQUENCE rs RENAME TO rs2;
ALTER SEQUENCE rt_id_seq RENAME TO rt_ids;
ALTER TABLE rt_g_seq RENAME TO rt_gs;
ALTER VIEW rv RENAME TO rv2;
ALTER MATERIALIZED VIEW rm RENAME TO rm2`)
	defer db.Close()
	for _, c := range []struct{ q, want string }{
		{"INSERT INTO rt (a) VALUES (3) RETURNING id, g", "[[3 3]]"},
		{"SELECT nextval('rs2')", "[[11]]"},
		{"SELECT pg_get_serial_sequence('rt', 'id'), pg_get_serial_sequence('rt', 'g')", "[[public.rt_ids public.rt_gs]]"},
		{"SELECT a FROM rv_over ORDER BY a", "[[2] [3]]"},
		{"SELECT a, n FROM rm2 ORDER BY a", "[[1 1] [2 1] [3 1]]"},
		{"SELECT count(*) FROM pg_class WHERE relname IN ('rs', 'rt_id_seq', 'rt_g_seq', 'rv', 'rm')", "[[0]]"},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatalf("%s after reopening: %v", c.q, err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening: got %s, want %s", c.q, g, c.want)
		}
	}
}

// TestUnloggedSequenceReopen checks that a sequence's persistence comes
// back from the file: made unlogged, renamed, moved with its table, made
// logged again, or dropped and made again logged.
func TestUnloggedSequenceReopen(t *testing.T) {
	db := reopenedFileDB(t, "unloggedseq11.db", `CREATE UNLOGGED SEQUENCE us;
CREATE UNLOGGED SEQUENCE gone;
CREATE SEQUENCE back;
ALTER SEQUENCE back SET UNLOGGED;
ALTER SEQUENCE back SET LOGGED;
CREATE UNLOGGED TABLE ut (id serial);
CREATE SCHEMA s11;
ALTER TABLE ut SET SCHEMA s11;
ALTER SEQUENCE us RENAME TO us2;
DROP SEQUENCE gone;
CREATE SEQUENCE gone;
SELECT nextval('us2')`)
	defer db.Close()
	q := "SELECT relname, relpersistence FROM pg_class WHERE relkind = 'S' ORDER BY 1"
	rs, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := fmt.Sprint(rs.Rows), "[[back p] [gone p] [us2 u] [ut_id_seq u]]"; g != want {
		t.Errorf("%s after reopening: got %s, want %s", q, g, want)
	}
	if rs, err := db.Query("SELECT nextval('us2')"); err != nil || fmt.Sprint(rs.Rows) != "[[2]]" {
		t.Errorf("nextval after reopening: %v %v", rs, err)
	}
}
