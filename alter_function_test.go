package deltaview_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestAlterFunctionFile alters routines of a database file, which keeps
// each as its CREATE statement followed by its ALTERs: opened again, the
// functions have their new names and strictness, the aggregate its new
// name, and the view over an altered function is rebuilt.
func TestAlterFunctionFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "alter.db")
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, a int);
INSERT INTO t VALUES (1, 10), (2, NULL);
CREATE FUNCTION nul(x int) RETURNS int LANGUAGE sql AS $$ SELECT coalesce(x, -1) $$;
CREATE FUNCTION dbl(x int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN x * 2; END $$;
CREATE AGGREGATE mysum(int) (SFUNC = int4pl, STYPE = int, INITCOND = '0');
ALTER FUNCTION nul(int) STRICT;
ALTER FUNCTION nul(int) RENAME TO nul2;
ALTER FUNCTION nul2 COST 3 IMMUTABLE;
ALTER FUNCTION dbl(int) IMMUTABLE;
ALTER AGGREGATE mysum(int) RENAME TO total;
CREATE MATERIALIZED VIEW v AS SELECT id, dbl(a) AS d, nul2(a) AS n FROM t`); err != nil {
		t.Fatal(deltaview.FormatError(err))
	}
	want := "[[1 20 10] [2 <nil> <nil>]] [[10]]"
	check := func(db *deltaview.DB) {
		t.Helper()
		v, err := db.Query(`SELECT * FROM v ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		s, err := db.Query(`SELECT total(a) FROM t`)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(texts(v.Rows), " ", texts(s.Rows)); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		if _, err := db.Query(`SELECT nul(1)`); deltaview.Code(err) != "42883" {
			t.Fatalf("the old name: %v", err)
		}
	}
	check(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(deltaview.FormatError(err))
	}
	defer db.Close()
	check(db)
	// The view keeps dbl immutable.
	if err := db.Exec(`ALTER FUNCTION dbl(int) VOLATILE`); deltaview.Code(err) != "0A000" {
		t.Fatalf("ALTER FUNCTION dbl(int) VOLATILE under a view: %v", err)
	}
}

// texts prints rows' values, NULL as <nil>.
func texts(rows [][]deltaview.Value) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		for _, v := range r {
			if v.IsNull() {
				out[i] = append(out[i], nil)
			} else {
				out[i] = append(out[i], v.String())
			}
		}
	}
	return out
}
