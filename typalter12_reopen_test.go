package deltaview_test

import "testing"

// TestCompositeAttnumReopen checks that a composite type's attributes
// keep their numbers after DROP ATTRIBUTE, and the dropped one its row of
// pg_attribute, after the file is opened again; an ADD ATTRIBUTE after the
// reopen takes the number after the greatest.
func TestCompositeAttnumReopen(t *testing.T) {
	db, path := openFileDB(t, "compattnum.db")
	if err := db.Exec(`CREATE TYPE cm AS ENUM ('x');
CREATE TYPE ca AS (a int, b varchar(10), c cm, d int);
ALTER TYPE ca DROP ATTRIBUTE b, DROP ATTRIBUTE c;
ALTER TYPE ca RENAME ATTRIBUTE d TO dd;
CREATE TABLE ct (id int PRIMARY KEY, v ca);
INSERT INTO ct VALUES (1, ROW(1, 2))`); err != nil {
		t.Fatal(err)
	}
	attrs := `SELECT attnum, attname, atttypid, attlen, atttypmod, attstorage, attcollation, attisdropped FROM pg_attribute WHERE attrelid = 'ca'::regclass ORDER BY attnum`
	want := "[[1 a 23 4 -1 p 0 f] [2 ........pg.dropped.2........ 0 -1 14 x 100 t] [3 ........pg.dropped.3........ 0 4 -1 p 0 t] [4 dd 23 4 -1 p 0 f]]"
	for round := 0; round < 2; round++ {
		db = reopenFileDB(t, db, path)
		wantRows(t, db, []queryRows{
			{attrs, want},
			{"SELECT (v).dd FROM ct", "[[2]]"},
		})
		if round == 0 {
			if err := db.Exec(`DROP TABLE ct; ALTER TYPE ca ADD ATTRIBUTE e text`); err != nil {
				t.Fatal(err)
			}
			want = want[:len(want)-1] + " [5 e 25 -1 -1 x 100 f]]"
			if err := db.Exec(`CREATE TABLE ct (id int PRIMARY KEY, v ca); INSERT INTO ct VALUES (1, ROW(1, 2, 'z'))`); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()
}

// TestPartitionAttnumReopen checks that a partition that existed when its
// root dropped a column keeps its column numbers and its dropped column's
// pg_attribute row after the file is opened again, also after an ALTER of
// what it has of its own, while a partition made after the drop keeps
// numbering its columns from 1.
func TestPartitionAttnumReopen(t *testing.T) {
	db, path := openFileDB(t, "partattnum.db")
	if err := db.Exec(`CREATE TABLE pa (a int, b int, c int) PARTITION BY RANGE (a);
CREATE TABLE pa1 PARTITION OF pa FOR VALUES FROM (0) TO (10) PARTITION BY RANGE (a);
CREATE TABLE pa11 PARTITION OF pa1 FOR VALUES FROM (0) TO (5);
INSERT INTO pa VALUES (1, 2, 3);
ALTER TABLE pa DROP COLUMN b;
CREATE TABLE pa2 PARTITION OF pa FOR VALUES FROM (10) TO (20);
ALTER TABLE pa ADD COLUMN d text`); err != nil {
		t.Fatal(err)
	}
	attrs := `SELECT attrelid::regclass::text, attnum, attname FROM pg_attribute WHERE attrelid IN ('pa1'::regclass, 'pa11'::regclass, 'pa2'::regclass) AND attnum > 0 ORDER BY 1, 2`
	want := "[[pa1 1 a] [pa1 2 ........pg.dropped.2........] [pa1 3 c] [pa1 4 d] [pa11 1 a] [pa11 2 ........pg.dropped.2........] [pa11 3 c] [pa11 4 d] [pa2 1 a] [pa2 2 c] [pa2 3 d]]"
	for round := 0; round < 2; round++ {
		db = reopenFileDB(t, db, path)
		wantRows(t, db, []queryRows{
			{attrs, want},
			{"SELECT * FROM pa ORDER BY a", "[[1 3 NULL]]"},
		})
		if round == 0 {
			if err := db.Exec(`ALTER TABLE pa1 ALTER COLUMN d SET DEFAULT 'x'`); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()
}
