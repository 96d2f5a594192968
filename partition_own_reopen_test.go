package deltaview_test

import (
	"strings"
	"testing"
)

// TestPartitionOwnReopen checks that what partitions have of their own
// (defaults, NOT NULL and checks, from PARTITION OF (…) and ALTER TABLE
// of the partition, and those of a partitioned partition its partitions
// have) is what the file holds, and that an ALTER of the partitioned
// table after them (a column renamed) is kept with them.
func TestPartitionOwnReopen(t *testing.T) {
	db := reopenedFileDB(t, "partown.db", `CREATE TABLE m (id int NOT NULL, k text, v int DEFAULT 1, note text) PARTITION BY LIST (k);
CREATE TABLE m_a PARTITION OF m (v DEFAULT 7, note WITH OPTIONS NOT NULL, CONSTRAINT a_small CHECK (v < 100)) FOR VALUES IN ('a');
CREATE TABLE m_b PARTITION OF m FOR VALUES IN ('b') PARTITION BY RANGE (id);
CREATE TABLE m_b1 PARTITION OF m_b FOR VALUES FROM (1) TO (100);
CREATE TABLE m_rest PARTITION OF m DEFAULT;
ALTER TABLE m_rest ALTER COLUMN v SET DEFAULT 42;
ALTER TABLE m_rest ADD CONSTRAINT later CHECK (v > 40) NOT VALID;
ALTER TABLE m_b ADD CONSTRAINT b_cap CHECK (v < 1000);
ALTER TABLE m_b ALTER COLUMN note SET NOT NULL;
INSERT INTO m_a (id, k, note) VALUES (1, 'a', 'x');
INSERT INTO m_rest (id, k) VALUES (2, 'c');
ALTER TABLE m RENAME COLUMN v TO w`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT id, w FROM m ORDER BY id", "[[1 7] [2 42]]"},
		{"SELECT conname, convalidated FROM pg_constraint WHERE conrelid = 'm_rest'::regclass ORDER BY 1", "[[later f]]"},
	})
	for _, ok := range []string{
		"INSERT INTO m_a (id, k, note) VALUES (3, 'a', 'y')",
		"INSERT INTO m_rest (id, k) VALUES (4, 'c')",
		"INSERT INTO m (id, k, note) VALUES (5, 'b', 'z')",
	} {
		if err := db.Exec(ok); err != nil {
			t.Fatalf("%s: %v", ok, err)
		}
	}
	wantRows(t, db, []queryRows{{"SELECT id, w FROM m ORDER BY id", "[[1 7] [2 42] [3 7] [4 42] [5 1]]"}})
	for bad, want := range map[string]string{
		"INSERT INTO m (id, k) VALUES (6, 'a')":                     `"note" of relation "m_a"`,
		"INSERT INTO m (id, k, w, note) VALUES (6, 'a', 200, 'x')":  `"m_a" violates check constraint "a_small"`,
		"INSERT INTO m (id, k, w) VALUES (6, 'c', 10)":              `"m_rest" violates check constraint "later"`,
		"INSERT INTO m (id, k, w, note) VALUES (6, 'b', 5000, 'x')": `"m_b1" violates check constraint "b_cap"`,
		"INSERT INTO m_b1 (id, k, w) VALUES (6, 'b', 5)":            `"note" of relation "m_b1"`,
		"ALTER TABLE m_b1 DROP CONSTRAINT b_cap":                    "cannot drop inherited constraint",
	} {
		err := db.Exec(bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", bad, err, want)
		}
	}
}

// TestRenameConstraintReopen checks that constraints renamed by ALTER
// TABLE … RENAME CONSTRAINT (a check, a primary key with its index, a
// partitioned table's check) keep their new names in the file.
func TestRenameConstraintReopen(t *testing.T) {
	db := reopenedFileDB(t, "renamecon.db", `CREATE TABLE t (a int PRIMARY KEY, CONSTRAINT c CHECK (a > 0));
ALTER TABLE t RENAME CONSTRAINT c TO c2;
ALTER TABLE t RENAME CONSTRAINT t_pkey TO tk;
CREATE TABLE p (a int, CONSTRAINT pc CHECK (a > 0)) PARTITION BY RANGE (a);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10);
ALTER TABLE p RENAME CONSTRAINT pc TO pc2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT conname FROM pg_constraint WHERE conrelid = 't'::regclass ORDER BY 1", "[[c2] [tk]]"},
		{"SELECT indexname FROM pg_indexes WHERE tablename = 't'", "[[tk]]"},
		{"SELECT conname FROM pg_constraint WHERE conrelid = 'p1'::regclass", "[[pc2]]"},
	})
}
