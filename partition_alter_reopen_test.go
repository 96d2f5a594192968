package deltaview_test

import "testing"

// TestPartitionAlterReopen checks that what ALTER TABLE of a partitioned
// table changes (columns added, dropped, renamed and retyped, a partition
// key column renamed at two levels, defaults, NOT NULL, checks, keys, its
// name, its index) is what the file holds: after it is opened again the
// partitions have the new columns, rows are routed by the renamed keys,
// and the constraints hold.
func TestPartitionAlterReopen(t *testing.T) {
	db := reopenedFileDB(t, "partalter.db", `CREATE TABLE ev (id int, k text, at int, amt int, PRIMARY KEY (id, k, at)) PARTITION BY RANGE (at);
CREATE TABLE ev_1 PARTITION OF ev FOR VALUES FROM (0) TO (10) PARTITION BY LIST (k);
CREATE TABLE ev_1a PARTITION OF ev_1 FOR VALUES IN ('a');
CREATE TABLE ev_other PARTITION OF ev DEFAULT;
CREATE UNIQUE INDEX ev_amt ON ev (id, at, k, amt);
INSERT INTO ev VALUES (1, 'a', 1, 10), (2, 'c', 20, 20);
ALTER TABLE ev ADD COLUMN note text DEFAULT 'n';
ALTER TABLE ev RENAME COLUMN k TO kind;
ALTER TABLE ev RENAME COLUMN at TO day;
ALTER TABLE ev ALTER COLUMN amt TYPE bigint;
CREATE MATERIALIZED VIEW one AS SELECT id, amt FROM ev_1a;
ALTER TABLE ev ALTER COLUMN note SET NOT NULL;
ALTER TABLE ev ALTER COLUMN amt SET DEFAULT 5;
ALTER TABLE ev ADD CONSTRAINT pos CHECK (amt > 0);
ALTER TABLE ev RENAME TO events`)
	defer db.Close()
	check := func(q, want string) {
		t.Helper()
		wantRows(t, db, []queryRows{{q, want}})
	}
	check("SELECT * FROM ev_1a", "[[1 a 1 10 n]]")
	check("SELECT * FROM ev_other", "[[2 c 20 20 n]]")
	if err := db.Exec("INSERT INTO events (id, kind, day) VALUES (3, 'a', 2)"); err != nil {
		t.Fatal(err)
	}
	check("SELECT id, amt, note FROM ev_1a ORDER BY id", "[[1 10 n] [3 5 n]]")
	check("SELECT * FROM one ORDER BY id", "[[1 10] [3 5]]")
	for _, bad := range []string{
		"INSERT INTO events (id, kind, day, amt) VALUES (4, 'a', 2, -1)",
		"INSERT INTO events (id, kind, day, note) VALUES (4, 'a', 2, NULL)",
		"INSERT INTO events (id, kind, day) VALUES (3, 'a', 2)",
		"INSERT INTO ev_1 (id, kind, day) VALUES (4, 'b', 2)",
		"ALTER TABLE events DROP COLUMN kind",
	} {
		if err := db.Exec(bad); err == nil {
			t.Errorf("%s: accepted after reopening", bad)
		}
	}
	check("SELECT inhparent::regclass::text FROM pg_inherits WHERE inhrelid = 'ev_1'::regclass", "[[events]]")
}
