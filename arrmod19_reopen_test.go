package deltaview_test

import "testing"

// TestArrmod19ArrayModifierReopen: array columns with an element modifier
// (varchar(3)[], numeric(5,2)[], a column retyped by ALTER TABLE) keep it
// in the file: atttypmod and format_type show it and assignment still
// checks and rounds each element.
func TestArrmod19ArrayModifierReopen(t *testing.T) {
	db := reopenedFileDB(t, "arrmod19.db", `CREATE TABLE t (id int, a varchar(3)[], b numeric(5,2)[], c char(2)[]);
INSERT INTO t VALUES (1, '{abc,NULL}', '{1.234}', '{x}');
ALTER TABLE t ALTER COLUMN c TYPE char(3)[];
CREATE MATERIALIZED VIEW mv AS SELECT id, a, b FROM t`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT attname, atttypmod, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 't'::regclass AND attnum > 1 ORDER BY attnum",
			"[[a 7 character varying(3)[]] [b 327686 numeric(5,2)[]] [c 7 character(3)[]]]"},
		{"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'mv'::regclass AND attnum > 1 ORDER BY attnum",
			"[[character varying(3)[]] [numeric(5,2)[]]]"},
		{"SELECT a, b, c FROM t", "[[{abc,NULL} {1.23} {\"x  \"}]]"},
	})
	if err := db.Exec("INSERT INTO t (id, a) VALUES (2, '{abcd}')"); err == nil {
		t.Fatal("a varchar(3)[] column accepted '{abcd}' after reopening")
	}
	if err := db.Exec("INSERT INTO t (id, b) VALUES (3, '{2.345}')"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT b FROM t WHERE id = 3", "[[{2.35}]]"},
		{"SELECT b FROM mv WHERE id = 3", "[[{2.35}]]"},
	})
}
