package deltaview_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestAlterStrictReopen checks that ALTER FUNCTION … STRICT of a function
// a materialized view calls builds the view again over the function as
// altered, that a transaction block's ROLLBACK gives the view back as it
// was and its COMMIT keeps it, and that the file, reopened, computes the
// view as altered; a view with subscribers refuses it inside a block.
func TestAlterStrictReopen(t *testing.T) {
	db, path := openFileDB(t, "alter_strict.db")
	s := db.Session()
	sessionExec(t, s, `CREATE TABLE t (k int PRIMARY KEY, a int)`)
	sessionExec(t, s, `INSERT INTO t VALUES (1, 1), (2, NULL)`)
	sessionExec(t, s, `CREATE FUNCTION f(x int) RETURNS int LANGUAGE sql AS 'SELECT coalesce(x, 100)'`)
	sessionExec(t, s, `CREATE MATERIALIZED VIEW mv AS SELECT sum(f(a)) AS s, count(f(a)) AS n FROM t`)
	sessionExec(t, s, `BEGIN`)
	sessionExec(t, s, `ALTER FUNCTION f(int) STRICT`)
	if rs, err := s.Query("SELECT * FROM mv"); err != nil || fmt.Sprint(rs.Rows) != "[[1 1]]" {
		t.Fatalf("mv inside the block: %v %v, want [[1 1]]", rs, err)
	}
	sessionExec(t, s, `ROLLBACK`)
	wantRows(t, db, []queryRows{{"SELECT * FROM mv", "[[101 2]]"}})
	sessionExec(t, s, `BEGIN`)
	sessionExec(t, s, `ALTER FUNCTION f(int) STRICT`)
	sessionExec(t, s, `INSERT INTO t VALUES (3, NULL), (4, 4)`)
	sessionExec(t, s, `COMMIT`)
	wantRows(t, db, []queryRows{{"SELECT * FROM mv", "[[5 2]]"}})
	stop, err := db.Subscribe("mv", func(deltaview.Delta) {})
	if err != nil {
		t.Fatal(err)
	}
	{
		sessionExec(t, s, `BEGIN`)
		if err := s.Exec(`ALTER FUNCTION f(int) CALLED ON NULL INPUT`); err == nil || !strings.Contains(err.Error(), "has subscribers") {
			t.Fatalf("ALTER FUNCTION … CALLED ON NULL INPUT in a block under a subscribed view: got %v, want 0A000", err)
		}
		sessionExec(t, s, `ROLLBACK`)
		stop()
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT * FROM mv", "[[5 2]]"},
		{"SELECT proisstrict FROM pg_proc WHERE proname = 'f'", "[[t]]"},
	})
	s = db.Session()
	sessionExec(t, s, `ALTER FUNCTION f(int) CALLED ON NULL INPUT`)
	wantRows(t, db, []queryRows{{"SELECT * FROM mv", "[[205 4]]"}})
}
