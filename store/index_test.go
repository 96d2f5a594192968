package store_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestIndexesSurvive checks that the indexes CREATE INDEX makes are kept
// in the file and made again at open (ordered, serving ranges), and that
// those DROP INDEX or DROP TABLE removed stay gone.
func TestIndexesSurvive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "idx.db")
	db := open(t, path)
	execSQL(t, db, `
		CREATE TABLE li (o int, l int, q int);
		INSERT INTO li SELECT g / 4, g % 4, g % 7 FROM generate_series(0, 99) g;
		CREATE INDEX ON li (o, l);
		CREATE INDEX li_q ON li (q);
		CREATE INDEX li_l ON li (l);
		DROP INDEX li_l;
		CREATE TABLE un (k int, v text);
		INSERT INTO un VALUES (1, 'a'), (2, 'b');
		CREATE UNIQUE INDEX un_k ON un (k);
		CREATE TABLE gone (x int);
		CREATE INDEX gone_x ON gone (x);
		DROP TABLE gone;
	`)
	const ranged = "SELECT * FROM li WHERE o = 7 AND l BETWEEN 1 AND 2 ORDER BY l"
	want := query(t, db, "SELECT * FROM li WHERE o = 7 ORDER BY l")
	wantRange := query(t, db, ranged)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	if got := query(t, db, "SELECT * FROM li WHERE o = 7 ORDER BY l"); !slices.Equal(got, want) {
		t.Fatalf("after reopening: %v, want %v", got, want)
	}
	if got := query(t, db, ranged); !slices.Equal(got, wantRange) || len(got) != 2 {
		t.Fatalf("after reopening, %s: %v, want %v", ranged, got, wantRange)
	}
	if err := db.Exec("INSERT INTO un VALUES (2, 'c')"); err == nil || !strings.Contains(err.Error(), `unique constraint "un_k"`) {
		t.Fatalf("after reopening, the unique index lets a duplicate in: %v", err)
	}
	plan := strings.Join(query(t, db, "EXPLAIN DELETE FROM li WHERE o = 7 AND l > 1"), "\n")
	if !strings.Contains(plan, "Index Scan using li_o_l_idx on li: o = 7 AND l > 1") {
		t.Fatalf("after reopening, the range does not go through the index:\n%s", plan)
	}
	for _, name := range []string{"li_o_l_idx", "li_q"} {
		if err := db.Exec("CREATE INDEX " + name + " ON li (q)"); err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("index %s was not made again at open: CREATE INDEX gave %v", name, err)
		}
	}
	execSQL(t, db, "CREATE INDEX li_l ON li (l); CREATE TABLE gone (x int); CREATE INDEX gone_x ON gone (x); DROP INDEX li_q")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	execSQL(t, db, "CREATE INDEX li_q ON li (q); DROP INDEX li_l, gone_x")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}
