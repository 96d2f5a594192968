package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestAlterIndexedReopen checks that the indexes of a table that ALTER
// TABLE renamed, moved and changed are made again from the file as the
// ALTER left them, enforced and shown so, and that an index dropped with
// its column stays dropped.
func TestAlterIndexedReopen(t *testing.T) {
	db := reopenedFileDB(t, "alterindexed.db", `CREATE TABLE u (id int PRIMARY KEY, email text, a int, n numeric);
CREATE UNIQUE INDEX u_lower ON u (lower(email)) WHERE a > 0;
CREATE INDEX u_a ON u (a) INCLUDE (email);
CREATE UNIQUE INDEX u_n ON u (n);
CREATE UNIQUE INDEX u_mail ON u (lower(email));
INSERT INTO u VALUES (1, 'X@y', 1, 7.2), (2, 'z', -1, 8.4);
ALTER TABLE u RENAME COLUMN email TO mail;
ALTER TABLE u ADD COLUMN k int;
ALTER TABLE u ALTER COLUMN n TYPE int USING round(n);
ALTER TABLE u DROP COLUMN a;
CREATE SCHEMA s;
ALTER TABLE u RENAME TO v;
ALTER TABLE v SET SCHEMA s`)
	defer db.Close()
	for _, c := range []struct{ stmt, code string }{
		{"INSERT INTO s.v VALUES (3, 'q', 7, NULL)", pgerr.UniqueViolation},
		{"INSERT INTO s.v VALUES (1, 'q', 9, NULL)", pgerr.UniqueViolation},
		{"INSERT INTO s.v VALUES (3, 'x@Y', 9, NULL)", pgerr.UniqueViolation},
		{"INSERT INTO s.v VALUES (3, 'w', 9, NULL)", ""},
	} {
		err := db.Exec(c.stmt)
		if got := pgerr.Code(err); err != nil && got != c.code || err == nil && c.code != "" {
			t.Errorf("%s after reopening: got %v, want %s", c.stmt, err, c.code)
		}
	}
	q := "SELECT schemaname, indexname, indexdef FROM pg_indexes WHERE tablename = 'v' ORDER BY 2"
	rs, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	want := "[[s u_mail CREATE UNIQUE INDEX u_mail ON s.v USING btree (lower(mail))] [s u_n CREATE UNIQUE INDEX u_n ON s.v USING btree (n)] [s u_pkey CREATE UNIQUE INDEX u_pkey ON s.v USING btree (id)]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("%s after reopening: got %s, want %s", q, g, want)
	}
}
