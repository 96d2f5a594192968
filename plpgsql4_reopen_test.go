package deltaview_test

import (
	"fmt"
	"testing"
)

// TestCTASCatalogCodeReopen checks that a table CREATE TABLE … AS made
// and the table the PL/pgSQL code its query called made are both in the
// database file, with their rows.
func TestCTASCatalogCodeReopen(t *testing.T) {
	db := reopenedFileDB(t, "ctascode.db", `CREATE FUNCTION mk() RETURNS int LANGUAGE plpgsql AS $$ BEGIN CREATE TABLE made (x int); INSERT INTO made VALUES (5); RETURN 7; END $$;
CREATE TABLE c1 AS SELECT mk() AS v;
DROP TABLE made;
SELECT mk() + 1 AS w INTO c2`)
	defer db.Close()
	rs, err := db.Query(`SELECT (SELECT v FROM c1), (SELECT w FROM c2), (SELECT count(*) FROM made)`)
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[7 8 1]]" {
		t.Errorf("after reopening: got %s, want [[7 8 1]]", g)
	}
}

// TestConstSeriesViewReopen checks that a view over generate_series of
// constant bounds is built again at open and maintained after.
func TestConstSeriesViewReopen(t *testing.T) {
	db := reopenedFileDB(t, "series.db", `CREATE TABLE t (a int);
INSERT INTO t VALUES (2), (9);
CREATE MATERIALIZED VIEW g AS SELECT g, count(a) AS n FROM generate_series(1, 3) g LEFT JOIN t ON g = a GROUP BY g`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (3), (3)`); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query(`SELECT string_agg(g || ':' || n, ',' ORDER BY g) FROM g`)
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[1:0,2:1,3:2]]" {
		t.Errorf("after reopening: got %s, want [[1:0,2:1,3:2]]", g)
	}
}
