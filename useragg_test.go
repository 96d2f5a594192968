package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestUserAggregatesReopen checks that user-defined aggregates and
// operators, and the views over them, survive closing and opening the
// file again, and that one dropped stays dropped.
func TestUserAggregatesReopen(t *testing.T) {
	db := reopenedFileDB(t, "agg.db", `CREATE TABLE t (id int PRIMARY KEY, g text, v int);
INSERT INTO t VALUES (1, 'a', 1), (2, 'a', 2), (3, 'b', 5);
CREATE FUNCTION sq(st int, x int) RETURNS int LANGUAGE sql AS 'SELECT coalesce(st, 0) + x * x';
CREATE AGGREGATE sqsum(int) (SFUNC = sq, STYPE = int);
CREATE AGGREGATE gone(int) (SFUNC = int4pl, STYPE = int);
DROP AGGREGATE gone(int);
CREATE FUNCTION f(int, int) RETURNS int LANGUAGE sql AS 'SELECT $1 * 10 + $2';
CREATE OPERATOR === (LEFTARG = int, RIGHTARG = int, FUNCTION = f);
CREATE MATERIALIZED VIEW mv AS SELECT g, sqsum(v) AS s, sqsum(v === 1) AS o FROM t GROUP BY g`)
	defer db.Close()
	if err := db.Exec("INSERT INTO t VALUES (4, 'b', 1)"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT * FROM mv ORDER BY g")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[a 5 562] [b 26 2722]]"; g != w {
		t.Fatalf("after reopening: got %s, want %s", g, w)
	}
	if _, err := db.Query("SELECT gone(v) FROM t"); pgerr.Code(err) != pgerr.UndefinedFunction {
		t.Fatalf("a dropped aggregate: got %v, want 42883", err)
	}
}
