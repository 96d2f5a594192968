package deltaview_test

import (
	"fmt"
	"testing"
)

// TestFunctionsReopen checks that polymorphic functions and the SQL
// functions run as statements (changing data, returning void, calling
// themselves) are what they were after the file is opened again, and so
// are the views over them.
func TestFunctionsReopen(t *testing.T) {
	db := reopenedFileDB(t, "fn.db", `CREATE TABLE t (id int PRIMARY KEY, v int);
CREATE FUNCTION pick(a anycompatible, b anycompatible) RETURNS anycompatible LANGUAGE sql AS 'SELECT greatest(a, b)';
CREATE FUNCTION twice(x anyelement) RETURNS anyarray LANGUAGE plpgsql AS $$ BEGIN RETURN ARRAY[x, x]; END $$;
CREATE FUNCTION add(i int, v int) RETURNS void LANGUAGE sql AS 'INSERT INTO t VALUES (i, v)';
CREATE FUNCTION fact(n int) RETURNS int LANGUAGE sql AS 'SELECT CASE WHEN n <= 1 THEN 1 ELSE n * fact(n - 1) END';
CREATE MATERIALIZED VIEW mv AS SELECT id, pick(v, 2.5) AS p FROM t`)
	defer db.Close()
	if _, err := db.Query("SELECT add(1, 7), add(2, 1)"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT * FROM mv ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[1 7] [2 2.5]]"; g != w {
		t.Errorf("view after reopening: got %s, want %s", g, w)
	}
	rs, err = db.Query("SELECT fact(5), twice('a'::text), twice(3)")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[120 {a,a} {3,3}]]"; g != w {
		t.Errorf("calls after reopening: got %s, want %s", g, w)
	}
}
