package deltaview_test

import "testing"

// TestDomainTypDefaultDeparsedReopen checks that pg_type.typdefault shows
// a domain's default in PostgreSQL's deparsed form, the text as set
// after a function it calls is renamed and typdefaultbin the function's
// new name, also once the file is opened again.
func TestDomainTypDefaultDeparsedReopen(t *testing.T) {
	db := reopenedFileDB(t, "volatile9_typdefault.db", `CREATE FUNCTION v9_seed() RETURNS int LANGUAGE sql AS 'SELECT 7';
CREATE DOMAIN v9_sum AS int DEFAULT 7 + 2;
CREATE DOMAIN v9_fn AS int DEFAULT v9_seed() + 1;
ALTER FUNCTION v9_seed() RENAME TO v9_seed2;
CREATE TABLE t (id int, a v9_sum, b v9_fn)`)
	defer db.Close()
	if err := db.Exec("INSERT INTO t (id) VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT typname::text, typdefault, pg_get_expr(typdefaultbin, 0) FROM pg_type WHERE typname IN ('v9_sum', 'v9_fn') ORDER BY 1",
			"[[v9_fn (v9_seed() + 1) (v9_seed2() + 1)] [v9_sum (7 + 2) (7 + 2)]]"},
		{"SELECT * FROM t", "[[1 9 8]]"},
	})
}
