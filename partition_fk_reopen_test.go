package deltaview_test

import (
	"strings"
	"testing"
)

// TestPartitionForeignKeyReopen checks that the foreign keys of and to
// partitioned tables (from CREATE TABLE and ALTER TABLE, and the copy a
// detached partition keeps) are what the file holds: checked, acting on
// every partition, and listed in pg_constraint as before.
func TestPartitionForeignKeyReopen(t *testing.T) {
	db := reopenedFileDB(t, "partfk.db", `CREATE TABLE p (id int, k int, PRIMARY KEY (id, k)) PARTITION BY RANGE (k);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10);
CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10) TO (20);
CREATE TABLE c (a int, id int, k int, FOREIGN KEY (id, k) REFERENCES p ON DELETE CASCADE) PARTITION BY LIST (a);
CREATE TABLE c1 PARTITION OF c FOR VALUES IN (1);
CREATE TABLE c2 PARTITION OF c FOR VALUES IN (2);
CREATE TABLE d (id int, k int);
ALTER TABLE d ADD CONSTRAINT dfk FOREIGN KEY (id, k) REFERENCES p;
INSERT INTO p VALUES (1, 1), (2, 12), (3, 3);
INSERT INTO c VALUES (1, 1, 1), (2, 2, 12), (2, 3, 3);
INSERT INTO d VALUES (3, 3);
ALTER TABLE c DETACH PARTITION c2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT conname, conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint WHERE contype = 'f' ORDER BY 1, 2",
			"[[c2_id_k_fkey c2 p1] [c2_id_k_fkey1 c2 p2] [c_id_k_fkey c p] [c_id_k_fkey c1 p] [c_id_k_fkey c2 p] [c_id_k_fkey1 c p1] [c_id_k_fkey2 c p2] [d_id_k_fkey d p1] [d_id_k_fkey1 d p2] [dfk d p]]"},
	})
	// The detached table's copy cascades as the constraint did.
	if err := db.Exec("DELETE FROM p WHERE id IN (1, 2)"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{{"SELECT count(*) FROM c", "[[0]]"}, {"SELECT id FROM c2", "[[3]]"}})
	for bad, want := range map[string]string{
		"INSERT INTO c VALUES (1, 9, 9)":             `insert or update on table "c1" violates foreign key constraint "c_id_k_fkey"`,
		"INSERT INTO c2 VALUES (2, 9, 9)":            `insert or update on table "c2" violates foreign key constraint "c_id_k_fkey"`,
		"DELETE FROM p WHERE id = 3":                 `update or delete on table "p1" violates foreign key constraint`,
		"ALTER TABLE p DETACH PARTITION p1":          `removing partition "p1" violates foreign key constraint`,
		"ALTER TABLE c1 DROP CONSTRAINT c_id_k_fkey": "cannot drop inherited constraint",
	} {
		err := db.Exec(bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", bad, err, want)
		}
	}
}
