package deltaview_test

import "testing"

// TestPartitionsReopen checks that a partitioned table, its partitions
// (a default one created before a later sibling, a partition partitioned
// again) and their rows are what they were after the file is opened
// again, that rows are still routed and refused, and that the views over
// the table and over a partition are rebuilt from them.
func TestPartitionsReopen(t *testing.T) {
	db := reopenedFileDB(t, "part.db", `CREATE TABLE ev (id int, k text, at int, PRIMARY KEY (id, k, at)) PARTITION BY RANGE (at);
CREATE TABLE ev_other PARTITION OF ev DEFAULT;
CREATE TABLE ev_1 PARTITION OF ev FOR VALUES FROM (0) TO (10) PARTITION BY LIST (k);
CREATE TABLE ev_1a PARTITION OF ev_1 FOR VALUES IN ('a');
CREATE TABLE ev_1b PARTITION OF ev_1 FOR VALUES IN ('b');
INSERT INTO ev VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 20);
CREATE TABLE ev_2 PARTITION OF ev FOR VALUES FROM (10) TO (20);
INSERT INTO ev VALUES (4, 'a', 15);
DROP TABLE ev_1b;
CREATE TABLE ev_3 (id int NOT NULL, k text NOT NULL, at int NOT NULL);
INSERT INTO ev_3 VALUES (7, 'z', 31);
ALTER TABLE ev ATTACH PARTITION ev_3 FOR VALUES FROM (30) TO (40);
CREATE TABLE ev_4 PARTITION OF ev FOR VALUES FROM (40) TO (50);
INSERT INTO ev VALUES (8, 'y', 41);
ALTER TABLE ev DETACH PARTITION ev_4;
CREATE MATERIALIZED VIEW per AS SELECT k, count(*) AS n FROM ev GROUP BY k;
CREATE MATERIALIZED VIEW one AS SELECT id FROM ev_1`)
	defer db.Close()
	check := func(q, want string) {
		t.Helper()
		wantRows(t, db, []queryRows{{q, want}})
	}
	check("SELECT tableoid::regclass::text, id FROM ev ORDER BY id", "[[ev_1a 1] [ev_other 3] [ev_2 4] [ev_3 7]]")
	check("SELECT * FROM per ORDER BY k", "[[a 2] [c 1] [z 1]]")
	check("SELECT * FROM ev_4", "[[8 y 41]]")
	if err := db.Exec("INSERT INTO ev VALUES (5, 'b', 3)"); err == nil {
		t.Error("a row with no partition after reopening was accepted")
	}
	if err := db.Exec("INSERT INTO ev_1 VALUES (6, 'a', 5); UPDATE ev SET at = 12 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	check("SELECT * FROM one ORDER BY id", "[[6]]")
	check("SELECT relname::text, relkind::text FROM pg_class WHERE relname::text LIKE 'ev%' AND relkind IN ('r', 'p') ORDER BY 1", "[[ev p] [ev_1 p] [ev_1a r] [ev_2 r] [ev_3 r] [ev_4 r] [ev_other r]]")
	check("SELECT relispartition FROM pg_class WHERE relname = 'ev_4'", "[[f]]")
}
