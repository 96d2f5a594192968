package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestMergeThroughIndex checks that MERGE finds the table rows a few
// source rows match through the table's index instead of reading the
// table whole: under a query memory budget that the table's rows exceed,
// a MERGE of a few rows by key runs, and one whose ON condition no index
// serves fails with 53200.
func TestMergeThroughIndex(t *testing.T) {
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
		SET deltaview.max_query_memory = '1MB'`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, tag string }{
		{`MERGE INTO big USING (VALUES (7, 'seven'), (300000, 'new')) AS s(id, v) ON big.id = s.id
			WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, 0, s.v)`, "MERGE 2"},
		{`MERGE INTO big USING (VALUES (7::bigint)) AS s(id) ON big.id = s.id AND big.v <> 'x'
			WHEN MATCHED THEN UPDATE SET k = -1`, "MERGE 1"},
		{`MERGE INTO big b USING (VALUES (3)) AS s(k) ON b.k = s.k AND b.id < 2000 WHEN MATCHED THEN DELETE`, "MERGE 2"},
	} {
		r, err := run(c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if r.Tag != c.tag {
			t.Errorf("%s: %s, want %s", c.sql, r.Tag, c.tag)
		}
	}
	r, err := run(`SELECT id, k, v FROM big WHERE id IN (3, 7, 1003, 300000) ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(r.Rows), "[(7, -1, seven) (300000, 0, new)]"; got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
	if _, err := run(`MERGE INTO big USING (VALUES ('v9')) AS s(v) ON big.v = s.v WHEN MATCHED THEN DELETE`); err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("a MERGE that reads the table whole under 1MB: %v, want out of memory", err)
	}
}
