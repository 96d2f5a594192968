package deltaview_test

import (
	"fmt"
	"testing"
)

// TestEnumRenameLiteralsReopen: the defaults and checks of a table and a
// domain that write an enum's labels as escape strings, dollar-quoted or
// within array literals follow RENAME VALUE, and read so once the file
// is opened again: a default (the domain's too) gives the new label, a
// check refuses it.
func TestEnumRenameLiteralsReopen(t *testing.T) {
	db := reopenedFileDB(t, "enum_rename_literals.db", `CREATE TYPE rl_e AS ENUM ('sad', 'ok');
CREATE DOMAIN rl_d AS rl_e DEFAULT $$ok$$ CHECK (VALUE <> E'sad');
CREATE TABLE rl_t (id int PRIMARY KEY, m rl_e DEFAULT E'o\x6b' CHECK (m <> $q$sad$q$), ms rl_e[] DEFAULT '{ok,sad}' CHECK (ms <> '{sad}'), tx text[] DEFAULT '{sad}', d rl_d);
ALTER TYPE rl_e RENAME VALUE 'ok' TO 'fine';
ALTER TYPE rl_e RENAME VALUE 'sad' TO 'blue'`)
	defer db.Close()
	if err := db.Exec("INSERT INTO rl_t (id) VALUES (1); INSERT INTO rl_t (id, d) VALUES (2, DEFAULT)"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ query, want string }{
		{"SELECT id, m, ms, tx, d FROM rl_t ORDER BY id", "[[1 fine {fine,blue} {sad} fine] [2 fine {fine,blue} {sad} fine]]"},
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'rl_t'::regclass ORDER BY adnum", "[['fine'::rl_e] ['{fine,blue}'::rl_e[]] ['{sad}'::text[]]]"},
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
		{"INSERT INTO rl_t (id, m) VALUES (3, 'blue')", `new row for relation "rl_t" violates check constraint "rl_t_m_check"`},
		{"INSERT INTO rl_t (id, ms) VALUES (4, '{blue}')", `new row for relation "rl_t" violates check constraint "rl_t_ms_check"`},
		{"SELECT 'blue'::rl_d", `value for domain rl_d violates check constraint "rl_d_check"`},
	} {
		if got := fmt.Sprint(db.Exec(c.stmt)); got != c.err {
			t.Errorf("%s after reopening: %s, want %s", c.stmt, got, c.err)
		}
	}
}
