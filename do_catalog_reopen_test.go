package deltaview_test

import (
	"fmt"
	"testing"
)

// TestDoCatalogReopen checks that the catalog changes a DO block made (a
// type, a column, a constraint, an index, EXECUTE's table) are there once
// the file is opened again.
func TestDoCatalogReopen(t *testing.T) {
	db := reopenedFileDB(t, "do_catalog.db", `CREATE TABLE t (id int);
INSERT INTO t VALUES (1);
DO $$ BEGIN CREATE TYPE mood AS ENUM ('a', 'b'); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 't' AND column_name = 'm') THEN ALTER TABLE t ADD COLUMN m mood DEFAULT 'b'; END IF; END $$;
DO $$ BEGIN ALTER TABLE t ADD CONSTRAINT id_pos CHECK (id > 0); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE INDEX t_m ON t (m); END $$;
DO $$ BEGIN EXECUTE format('CREATE TABLE %I (a int)', 'made'); END $$`)
	defer db.Close()
	rs, err := db.Query("SELECT id, m::text, (SELECT count(*) FROM made), (SELECT count(*) FROM pg_indexes WHERE indexname = 't_m') FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[1 b 0 1]]"; g != w {
		t.Errorf("after reopening: got %s, want %s", g, w)
	}
	if err := db.Exec("INSERT INTO t VALUES (0, 'a')"); err == nil {
		t.Error("the CHECK the DO block added was lost on reopening")
	}
	if err := db.Exec(`DO $$ BEGIN CREATE TYPE mood AS ENUM ('a', 'b'); EXCEPTION WHEN duplicate_object THEN NULL; END $$`); err != nil {
		t.Errorf("DO again after reopening: %v", err)
	}
}
