package deltaview_test

import "testing"

// TestColumnAttrsReopen checks that column attributes (statistics
// targets, storage, compression, options), UNLOGGED and the replica
// identity are kept after the file is opened again, an index's that
// CREATE INDEX made too, and survive a later ALTER TABLE; so does an
// EXCLUDE constraint's INCLUDE.
func TestColumnAttrsReopen(t *testing.T) {
	db, path := openFileDB(t, "attrs.db")
	if err := db.Exec(`CREATE UNLOGGED TABLE ca (a int PRIMARY KEY, "B x" text COMPRESSION lz4, c int NOT NULL);
INSERT INTO ca VALUES (1, 'x', 10);
CREATE UNIQUE INDEX ca_c ON ca (c);
CREATE TABLE cx (a int, b int, EXCLUDE (a WITH =) INCLUDE (b))`); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`ALTER TABLE ca ALTER COLUMN "B x" SET STATISTICS 77, ALTER COLUMN "B x" SET STORAGE external, ALTER COLUMN "B x" SET (n_distinct = -0.25, n_distinct_inherited = 3);
ALTER TABLE ca REPLICA IDENTITY USING INDEX ca_c;
CREATE TABLE cb (a int, b numeric);
ALTER TABLE cb ALTER COLUMN b SET STORAGE plain, ALTER COLUMN a SET STATISTICS 0, REPLICA IDENTITY FULL`); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		db = reopenFileDB(t, db, path)
		cols := "[[a -1 p  NULL] [B x 77 e l {n_distinct=-0.25,n_distinct_inherited=3}] [c -1 p  NULL]]"
		if round == 1 {
			cols = "[[a -1 p  NULL] [B x 77 e l {n_distinct=-0.25,n_distinct_inherited=3}] [c -1 p  NULL] [d -1 p  NULL]]"
		}
		wantRows(t, db, []queryRows{
			{`SELECT attname, attstattarget, attstorage, attcompression, attoptions FROM pg_attribute WHERE attrelid = 'ca'::regclass AND attnum > 0 ORDER BY attnum`, cols},
			{`SELECT attname, attstattarget, attstorage FROM pg_attribute WHERE attrelid = 'cb'::regclass AND attnum > 0 ORDER BY attnum`, "[[a 0 p] [b -1 p]]"},
			{`SELECT relname, relpersistence, relreplident FROM pg_class WHERE relname IN ('ca', 'cb') ORDER BY 1`, "[[ca u i] [cb p f]]"},
			{`SELECT indexrelid::regclass::text FROM pg_index WHERE indisreplident`, "[[ca_c]]"},
			{"SELECT a FROM ca", "[[1]]"},
			{`SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'cx'::regclass`, "[[cx_a_b_excl EXCLUDE USING btree (a WITH =) INCLUDE (b)]]"},
		})
		if round == 0 {
			// An ALTER that rebuilds the table keeps them all.
			if err := db.Exec(`ALTER TABLE ca ADD COLUMN d int`); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()
}
