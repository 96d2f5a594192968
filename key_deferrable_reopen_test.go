package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestKeyDeferrableReopen checks that DEFERRABLE primary keys and unique
// constraints stay so after the file is opened again: checked at the end
// of a statement, or at the commit while deferred, and shown as before.
func TestKeyDeferrableReopen(t *testing.T) {
	db := reopenedFileDB(t, "keydefer.db", `CREATE TABLE t (id int PRIMARY KEY DEFERRABLE INITIALLY DEFERRED, pos int UNIQUE DEFERRABLE);
INSERT INTO t VALUES (1, 1), (2, 2), (3, 3);
CREATE TABLE a (id int, pos int);
ALTER TABLE a ADD CONSTRAINT a_pos UNIQUE (pos) DEFERRABLE INITIALLY DEFERRED`)
	defer db.Close()
	for _, c := range []struct{ stmt, code string }{
		{"UPDATE t SET pos = pos + 1", ""},
		{"INSERT INTO t VALUES (4, 4)", pgerr.UniqueViolation},
		{"BEGIN; INSERT INTO t VALUES (1, 10); UPDATE t SET id = 10 WHERE pos = 10; COMMIT", ""},
		{"BEGIN; INSERT INTO t VALUES (1, 11); COMMIT", pgerr.UniqueViolation},
		{"BEGIN; INSERT INTO a VALUES (1, 1), (2, 1); DELETE FROM a WHERE id = 2; COMMIT", ""},
		{"BEGIN; INSERT INTO a VALUES (3, 1); COMMIT", pgerr.UniqueViolation},
		{"INSERT INTO t VALUES (5, 5) ON CONFLICT DO NOTHING", pgerr.ObjectNotInPrereqState},
	} {
		err := db.Exec(c.stmt)
		if got := pgerr.Code(err); err != nil && got != c.code || err == nil && c.code != "" {
			t.Errorf("%s after reopening: got %v, want %s", c.stmt, err, c.code)
		}
	}
	q := "SELECT conname, condeferrable, condeferred FROM pg_constraint WHERE conrelid IN ('t'::regclass, 'a'::regclass) ORDER BY 1"
	rs, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := fmt.Sprint(rs.Rows), "[[a_pos t t] [t_pkey t t] [t_pos_key t f]]"; g != want {
		t.Errorf("%s after reopening: got %s, want %s", q, g, want)
	}
	rs, err = db.Query("SELECT * FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if g, want := fmt.Sprint(rs.Rows), "[[1 2] [2 3] [3 4] [10 10]]"; g != want {
		t.Errorf("rows after reopening: got %s, want %s", g, want)
	}
}
