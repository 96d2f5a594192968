package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestUpdatableViewReopen checks that views keep their check options
// and their columns' defaults when the file is opened again: DML through
// them still changes their table and still meets the options.
func TestUpdatableViewReopen(t *testing.T) {
	db, path := openFileDB(t, "uv.db")
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, a int);
CREATE VIEW pos AS SELECT id, a FROM t WHERE a > 0 WITH LOCAL CHECK OPTION;
CREATE VIEW small WITH (check_option = cascaded) AS SELECT id, a FROM pos WHERE a < 10;
CREATE MATERIALIZED VIEW n AS SELECT count(*) AS n, sum(a) AS s FROM t;
ALTER VIEW pos ALTER COLUMN a SET DEFAULT 7;
INSERT INTO small VALUES (1, 5)`); err != nil {
		t.Fatal(err)
	}
	db = reopenFileDB(t, db, path)
	if err := db.Exec("ALTER VIEW small ALTER COLUMN a SET DEFAULT 8"); err != nil {
		t.Fatal(err)
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	for _, c := range []struct{ stmt, code string }{
		{"INSERT INTO small VALUES (2, 20)", "44000"},
		{"INSERT INTO pos VALUES (2, -1)", "44000"},
		{"INSERT INTO pos VALUES (2, 20)", ""},
		{"UPDATE small SET a = a + 1", ""},
		{"UPDATE small SET a = 0", "44000"},
		{"INSERT INTO pos (id) VALUES (3)", ""},
		{"INSERT INTO small (id) VALUES (4)", ""},
	} {
		err := db.Exec(c.stmt)
		if got := pgerr.Code(err); got != c.code && !(c.code == "" && err == nil) {
			t.Errorf("%s: got %v, want %s", c.stmt, err, c.code)
		}
	}
	rs, err := db.Query("SELECT table_name, check_option FROM information_schema.views ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[pos LOCAL] [small CASCADED]]"; g != w {
		t.Errorf("views: got %s, want %s", g, w)
	}
	rs, err = db.Query("SELECT * FROM n")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[4 41]]"; g != w {
		t.Errorf("n: got %s, want %s", g, w)
	}
}
