package deltaview_test

import (
	"fmt"
	"testing"
)

// enumRenameScript makes an enum that a table (its rows, a default, a
// check, an array column), a domain, a view and a materialized view use,
// then renames one of its labels and the type; a transaction block's
// renames are rolled back, whole or to a savepoint.
const enumRenameScript = `CREATE TYPE er_mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN er_good AS er_mood CHECK (VALUE <> 'sad');
CREATE TABLE er_t (id int PRIMARY KEY, m er_mood DEFAULT 'happy' CHECK (m <> 'ok' OR id > 0), ms er_mood[], note text DEFAULT 'happy', g er_good);
INSERT INTO er_t VALUES (1, 'sad', '{sad,happy}', 'x', 'ok'), (2, 'happy', NULL, 'happy', 'happy'), (3, 'ok', '{ok}', 'ok', NULL);
CREATE VIEW er_v AS SELECT id, m, m = 'happy' AS glad, note = 'happy' AS n FROM er_t WHERE m <> 'sad'::er_mood;
CREATE MATERIALIZED VIEW er_mv AS SELECT m, count(*) AS c FROM er_t WHERE m IN ('happy', 'ok') GROUP BY m;
ALTER TYPE er_mood RENAME VALUE 'happy' TO 'glad';
ALTER TYPE er_mood RENAME TO er_feeling;
BEGIN;
ALTER TYPE er_feeling RENAME VALUE 'ok' TO 'fine';
ROLLBACK;
BEGIN;
ALTER TYPE er_feeling RENAME VALUE 'sad' TO 'blue';
SAVEPOINT s;
ALTER TYPE er_feeling RENAME TO er_other;
ALTER TYPE er_other RENAME VALUE 'ok' TO 'fine';
ROLLBACK TO SAVEPOINT s;
INSERT INTO er_t (id) VALUES (4);
COMMIT`

// TestEnumRenameReopen checks that the rows, defaults, checks, domains and
// views of an enum whose label and name were changed read as they did
// once the file is opened again.
func TestEnumRenameReopen(t *testing.T) {
	db := reopenedFileDB(t, "enum_rename.db", enumRenameScript)
	defer db.Close()
	for _, c := range []struct{ query, want string }{
		{"SELECT id, m, ms, note, g FROM er_t ORDER BY m, id", "[[1 blue {blue,glad} x ok] [3 ok {ok} ok NULL] [2 glad NULL happy glad] [4 glad NULL happy NULL]]"},
		{"SELECT * FROM er_v ORDER BY id", "[[2 glad t t] [3 ok f f] [4 glad t t]]"},
		{"SELECT * FROM er_mv ORDER BY m", "[[ok 1] [glad 2]]"},
		{"SELECT enum_range(NULL::er_feeling)::text, pg_typeof(m)::text FROM er_t WHERE id = 1", "[[{blue,ok,glad} er_feeling]]"},
		{"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'er_t'::regclass AND attnum IN (2, 3)", "[[er_feeling] [er_feeling[]]]"},
	} {
		rs, err := db.Query(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", c.query, g, c.want)
		}
	}
	for _, c := range []struct{ stmt, err string }{
		{"INSERT INTO er_t (id, m) VALUES (5, 'ok')", ""},
		{"INSERT INTO er_t (id, m) VALUES (-1, 'ok')", `new row for relation "er_t" violates check constraint "er_t_check"`},
		{"INSERT INTO er_t (id, g) VALUES (6, 'blue')", `value for domain er_good violates check constraint "er_good_check"`},
		{"INSERT INTO er_t (id, m) VALUES (7, 'happy')", `invalid input value for enum er_feeling: "happy"`},
	} {
		err := db.Exec(c.stmt)
		if got := fmt.Sprint(err); c.err == "" && err != nil || c.err != "" && got != c.err {
			t.Errorf("%s after reopening: got %v, want %q", c.stmt, err, c.err)
		}
	}
	rs, err := db.Query("SELECT * FROM er_mv ORDER BY m")
	if err != nil {
		t.Fatal(err)
	}
	if g, want := fmt.Sprint(rs.Rows), "[[ok 2] [glad 2]]"; g != want {
		t.Errorf("er_mv maintained after reopening:\n got %s\nwant %s", g, want)
	}
}
