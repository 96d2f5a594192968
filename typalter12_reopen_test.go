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
