package deltaview_test

import (
	"fmt"
	"testing"
)

// TestHunt4ViewsReopen checks that views over this round's query shapes
// — LATERAL VALUES, a RANGE frame over a time of day, the functional
// notation of a field, a set-returning call whose argument is a
// subquery, ORDER BY … LIMIT ALL — are bound again from the file and
// keep being maintained after it is opened again.
func TestHunt4ViewsReopen(t *testing.T) {
	db := reopenedFileDB(t, "hunt4.db", `CREATE TABLE t (num int PRIMARY KEY, name text, at time);
CREATE TABLE u (num int, v text);
INSERT INTO t VALUES (1, 'a', '08:00'), (2, 'bb', '08:30');
INSERT INTO u VALUES (1, 'x'), (2, 'y');
CREATE MATERIALIZED VIEW lv AS SELECT t.num, v.k, v.x FROM t, LATERAL (VALUES ('n', t.num), ('s', length(t.name))) v(k, x);
CREATE MATERIALIZED VIEW rv AS SELECT num, count(*) OVER (ORDER BY at RANGE BETWEEN '1 hour' PRECEDING AND CURRENT ROW) AS c FROM t;
CREATE MATERIALIZED VIEW fv AS SELECT name(t) AS n FROM t;
CREATE MATERIALIZED VIEW sv AS SELECT num, unnest(ARRAY(SELECT v FROM u WHERE u.num <= t.num ORDER BY v)) AS v FROM t;
CREATE MATERIALIZED VIEW av AS SELECT num FROM t ORDER BY num LIMIT ALL;`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO t VALUES (3, 'ccc', '09:15'); INSERT INTO u VALUES (3, 'z')`); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		`SELECT count(*), sum(x) FROM lv`:                          "[[6 12]]",
		`SELECT string_agg(c::text, ',' ORDER BY num) FROM rv`:     "[[1,2,2]]",
		`SELECT string_agg(n, ',' ORDER BY n) FROM fv`:             "[[a,bb,ccc]]",
		`SELECT string_agg(num || v, ',' ORDER BY num, v) FROM sv`: "[[1x,2x,2y,3x,3y,3z]]",
		`SELECT count(*) FROM av`:                                  "[[3]]",
	} {
		rs, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got := fmt.Sprint(rs.Rows); got != want {
			t.Errorf("%s = %s, want %s", q, got, want)
		}
	}
}
