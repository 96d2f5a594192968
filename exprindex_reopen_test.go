package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestExprIndexPathReopen checks that an index on expressions and a
// partial index, on a table and on a partitioned table, find their rows
// after the file is opened again: built over the rows the file keeps,
// they serve the same WHERE (EXPLAIN), give the same rows, and a unique
// one is enforced.
func TestExprIndexPathReopen(t *testing.T) {
	db := reopenedFileDB(t, "exprpath.db", `CREATE TABLE u (id int PRIMARY KEY, email text, a int);
CREATE INDEX u_lower ON u (lower(email));
CREATE INDEX u_part ON u (a) WHERE id > 2;
INSERT INTO u VALUES (1, 'X@y', 1), (2, 'x@Y', 5), (3, 'z', 5), (4, 'Z', 6);
CREATE TABLE pt (k int, t text) PARTITION BY LIST (k);
CREATE TABLE pt1 PARTITION OF pt FOR VALUES IN (1);
CREATE TABLE pt2 PARTITION OF pt FOR VALUES IN (2);
CREATE UNIQUE INDEX pt_lower ON pt (lower(t), k);
INSERT INTO pt VALUES (1, 'A'), (2, 'a'), (2, 'B')`)
	defer db.Close()
	for _, c := range []struct{ q, want string }{
		{"EXPLAIN DELETE FROM u WHERE lower(email) = 'x@y'", "[[Delete on u] [  -> Index Scan using u_lower on u: lower(email) = 'x@y']]"},
		{"EXPLAIN DELETE FROM u WHERE a = 5 AND id > 3", "[[Delete on u] [  -> Index Scan using u_part on u: a = 5]]"},
		{"SELECT id FROM u WHERE lower(email) = 'x@y' ORDER BY id", "[[1] [2]]"},
		{"SELECT id FROM u WHERE a = 5 AND id > 2", "[[3]]"},
		{"DELETE FROM u WHERE lower(email) = 'z' RETURNING id", "[[3] [4]]"},
		{"SELECT id FROM u WHERE a >= 5 AND id > 2", "[]"},
		{"EXPLAIN DELETE FROM pt2 WHERE lower(t) = 'a'", "[[Delete on pt] [  -> Index Scan using pt_lower on pt: lower(t) = 'a']]"},
		{"SELECT * FROM pt2 WHERE lower(t) = 'a'", "[[2 a]]"},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening: got %s, want %s", c.q, g, c.want)
		}
	}
	if err := db.Exec("INSERT INTO pt VALUES (2, 'b')"); pgerr.Code(err) != pgerr.UniqueViolation {
		t.Errorf("a duplicate of pt_lower after reopening: %v", err)
	}
}
