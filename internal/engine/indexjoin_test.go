package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestJoinThroughIndex checks that an ad-hoc join of a few rows with a
// large table finds their matches through the table's index instead of
// reading it whole, and so do a column IN list and = ANY (array): under a query memory
// budget that the table's rows exceed, these queries answer, and a join
// of every row fails with 53200.
func TestJoinThroughIndex(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) (Result, error) {
		var last Result
		err := sess.ExecScript(sql, func(r Result) error { last = r; return nil })
		return last, err
	}
	if _, err := run(`CREATE TABLE big (id int PRIMARY KEY, k int, v text);
		INSERT INTO big SELECT g, g % 1000, 'v' || g FROM generate_series(1, 200000) g;
		CREATE INDEX ON big (k);
		CREATE TABLE small (id int PRIMARY KEY, b int);
		INSERT INTO small SELECT g, g * 7 FROM generate_series(1, 40000, 100) g;
		SET deltaview.max_query_memory = '1MB'`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, want string }{
		{`SELECT s.id, b.v FROM small s JOIN big b ON b.id = s.b WHERE s.id IN (1, 101, 201) ORDER BY 1`, "[(1, v7) (101, v707) (201, v1407)]"},
		{`SELECT count(*) FROM small s JOIN big b ON b.k = s.id WHERE s.id < 300`, "[(600)]"},
		{`SELECT s.id, b.v FROM small s LEFT JOIN big b ON b.id = s.b AND b.v LIKE '%07' WHERE s.id IN (1, 101, 30001) ORDER BY 1`, "[(1, NULL) (101, v707) (30001, NULL)]"},
		{`SELECT s.id FROM small s WHERE s.id % 10000 = 1 AND NOT EXISTS (SELECT FROM big b WHERE b.id = s.b)`, "[(30001)]"},
		{`SELECT s.id FROM small s WHERE s.id IN (401, 501) AND EXISTS (SELECT FROM big b WHERE b.id = s.b AND b.v <> 'v2807')`, "[(501)]"},
		{`SELECT b.v FROM big b WHERE b.id IN (14, 7, 14, NULL) ORDER BY 1`, "[(v14) (v7)]"},
		{`SELECT b.id FROM big b WHERE b.k IN (3, 4) AND b.id < 2000 ORDER BY 1`, "[(3) (4) (1003) (1004)]"},
		{`SELECT b.id FROM big b WHERE b.id = ANY ('{9, 8, 9}') ORDER BY 1`, "[(8) (9)]"},
		{`SELECT s.id, b.v FROM big s JOIN big b ON b.id = s.k * 2 WHERE s.id IN (1001, 1002) ORDER BY 1`, "[(1001, v2) (1002, v4)]"},
		{`SELECT s.id, (SELECT count(*) FROM big b WHERE b.k = s.id) FROM small s WHERE s.id IN (1, 1001) ORDER BY 1`, "[(1, 200) (1001, 0)]"},
		{`SELECT s.id, (SELECT max(v) FROM big b WHERE b.k = s.id % 1000 AND b.id < 5000) FROM small s WHERE s.id = 1001`, "[(1001, v4001)]"},
		{`SELECT s.id FROM small s WHERE s.id IN (1, 1001) AND EXISTS (SELECT FROM big b WHERE b.k = s.id GROUP BY b.k HAVING count(*) > 100)`, "[(1)]"},
		{`SELECT s.id, x.n FROM small s JOIN (SELECT DISTINCT k, id % 2 AS n FROM big) x ON x.k = s.id WHERE s.id = 1 ORDER BY 2`, "[(1, 1)]"},
	} {
		r, err := run(c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if got := fmt.Sprint(r.Rows); got != c.want {
			t.Errorf("%s: %s, want %s", c.sql, got, c.want)
		}
	}
	// The budget is what tells the paths apart: a join of every row reads
	// both tables whole.
	if _, err := run(`SELECT count(*) FROM big b1 JOIN big b ON b.id = b1.k`); err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("a join of every row under 1MB: %v, want out of memory", err)
	}
}
