package deltaview_test

import "testing"

// TestAttnumReopen checks that the numbers of a table's columns after a
// DROP COLUMN, and the rows of pg_attribute of the dropped ones, are
// kept after the file is opened again, and that an ADD COLUMN after the
// reopen takes the number after the greatest, a dropped column's too.
func TestAttnumReopen(t *testing.T) {
	db, path := openFileDB(t, "attnum.db")
	if err := db.Exec(`CREATE TABLE an (a int, b varchar(10) COLLATE "C", c text, d numeric(5,2), e int PRIMARY KEY);
INSERT INTO an VALUES (1, 'x', 'y', 1.5, 2);
ALTER TABLE an ALTER COLUMN d SET STORAGE main, ALTER COLUMN c SET STATISTICS 9;
ALTER TABLE an DROP COLUMN b;
ALTER TABLE an DROP COLUMN d;
CREATE INDEX an_c ON an (c)`); err != nil {
		t.Fatal(err)
	}
	attrs := `SELECT attnum, attname, atttypid, attlen, atttypmod, attstorage, attcollation, attisdropped, attstattarget FROM pg_attribute WHERE attrelid = 'an'::regclass AND attnum > 0 ORDER BY attnum`
	want := "[[1 a 23 4 -1 p 0 f -1] [2 ........pg.dropped.2........ 0 -1 14 x 950 t 0] [3 c 25 -1 -1 x 100 f 9] " +
		"[4 ........pg.dropped.4........ 0 -1 327686 m 0 t 0] [5 e 23 4 -1 p 0 f -1]]"
	for round := 0; round < 2; round++ {
		db = reopenFileDB(t, db, path)
		wantRows(t, db, []queryRows{
			{attrs, want},
			{`SELECT relnatts FROM pg_class WHERE relname = 'an'`, map[int]string{0: "[[5]]", 1: "[[6]]"}[round]},
			{`SELECT indexrelid::regclass::text, indkey::text FROM pg_index WHERE indrelid = 'an'::regclass ORDER BY 1`, "[[an_c 3] [an_pkey 5]]"},
			{"SELECT * FROM an", map[int]string{0: "[[1 y 2]]", 1: "[[1 y 2 NULL]]"}[round]},
		})
		if round == 0 {
			if err := db.Exec(`ALTER TABLE an ADD COLUMN f int`); err != nil {
				t.Fatal(err)
			}
			want = want[:len(want)-1] + " [6 f 23 4 -1 p 0 f -1]]"
		}
	}
	db.Close()
}

// TestLikeReopen checks that a table CREATE TABLE (LIKE … INCLUDING ALL)
// made keeps, after the file is opened again, the columns, indexes,
// comments and statistics objects it copied, whatever its source became
// since.
func TestLikeReopen(t *testing.T) {
	db, path := openFileDB(t, "like.db")
	if err := db.Exec(`CREATE TABLE ls (a int PRIMARY KEY, b text, c int);
CREATE INDEX ON ls (b);
CREATE INDEX ls_x ON ls (lower(b)) WHERE c > 1;
COMMENT ON COLUMN ls.b IS 'bee';
COMMENT ON INDEX ls_x IS 'x';
CREATE STATISTICS ls_st ON b, c FROM ls;
CREATE TABLE lt (LIKE ls INCLUDING ALL);
ALTER TABLE ls ADD COLUMN d int;
CREATE INDEX ON ls (c)`); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		db = reopenFileDB(t, db, path)
		wantRows(t, db, []queryRows{
			{`SELECT attname FROM pg_attribute WHERE attrelid = 'lt'::regclass AND attnum > 0 ORDER BY attnum`, "[[a] [b] [c]]"},
			{`SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'lt'::regclass ORDER BY 1`, "[[lt_b_idx] [lt_lower_idx] [lt_pkey]]"},
			{`SELECT c.relname, d.objsubid, d.description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid WHERE c.relname LIKE 'lt%' ORDER BY 1, 2`, "[[lt 2 bee] [lt_lower_idx 0 x]]"},
			{`SELECT stxname FROM pg_statistic_ext WHERE stxrelid = 'lt'::regclass`, "[[lt_b_c_stat]]"},
		})
	}
	db.Close()
}

// TestTypedTableReopen checks that a typed table keeps its type after the
// file is opened again, and with it the refusals it brings, also after
// an ALTER TABLE rewrote its definition.
func TestTypedTableReopen(t *testing.T) {
	db, path := openFileDB(t, "typed.db")
	if err := db.Exec(`CREATE TYPE tct AS (a int, b text);
CREATE TABLE ttt OF tct (a WITH OPTIONS PRIMARY KEY);
INSERT INTO ttt VALUES (1, 'x');
CREATE TABLE tpl (a int, b text);
ALTER TABLE tpl OF tct;
ALTER TABLE tpl NOT OF;
ALTER TABLE tpl OF tct`); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		db = reopenFileDB(t, db, path)
		wantRows(t, db, []queryRows{
			{`SELECT relname, reloftype::regtype::text FROM pg_class WHERE relname IN ('ttt', 'tpl') ORDER BY 1`, "[[tpl tct] [ttt tct]]"},
			{"SELECT * FROM ttt", "[[1 x]]"},
		})
		if err := db.Exec(`ALTER TABLE ttt ADD COLUMN c int`); err == nil {
			t.Fatal("ADD COLUMN of a typed table succeeded")
		}
		if round == 0 {
			if err := db.Exec(`ALTER TABLE ttt ALTER COLUMN b SET NOT NULL`); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.Exec(`DROP TYPE tct`); err == nil {
		t.Fatal("DROP TYPE of a typed table's type succeeded")
	}
	db.Close()
}
