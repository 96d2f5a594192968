package deltaview_test

import (
	"fmt"
	"testing"
)

// TestExtensionsReopen checks that the extensions created are installed
// again when the file is opened, before the tables whose defaults call
// their functions and the views that call them, and that one dropped
// stays dropped.
func TestExtensionsReopen(t *testing.T) {
	db, path := openFileDB(t, "ext.db")
	if err := db.Exec(`CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
CREATE EXTENSION pgcrypto;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuid_generate_v4(), name text);
INSERT INTO t (name) VALUES ('a'), ('b');
CREATE MATERIALIZED VIEW mv AS SELECT name, encode(digest(name, 'sha1'), 'hex') AS h FROM t`); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`CREATE EXTENSION "uuid-ossp" SCHEMA pg_catalog`); err == nil {
		t.Fatal("a second CREATE EXTENSION of uuid-ossp succeeded")
	}
	db = reopenFileDB(t, db, path)
	if err := db.Exec("INSERT INTO t (name) VALUES ('c')"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT name, h FROM mv ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[a 86f7e437faa5a7fce15d1ddcb9eaeaea377667b8] [b e9d71f5ee7c92d6dc9e92ffdad17b8bd49418f98] [c 84a516841ba77a5b4648de2cd0dfcb30ea46dbb4]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("view after reopening: got %s, want %s", g, want)
	}
	rs, err = db.Query("SELECT extname, extnamespace::regnamespace FROM pg_extension ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[pgcrypto public] [plpgsql pg_catalog] [uuid-ossp public]]"; g != w {
		t.Errorf("extensions after reopening: got %s, want %s", g, w)
	}
	if err := db.Exec("DROP MATERIALIZED VIEW mv; DROP EXTENSION pgcrypto"); err != nil {
		t.Fatal(err)
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	if _, err := db.Query("SELECT digest('a', 'md5')"); err == nil {
		t.Error("digest exists after pgcrypto was dropped and the file opened again")
	}
	rs, err = db.Query("SELECT count(DISTINCT id) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[3]]"; g != w {
		t.Errorf("rows after reopening: got %s, want %s", g, w)
	}
}

// TestCastsReopen checks that a user cast is there after the file is
// opened again, and the view that applies it is maintained with it.
func TestCastsReopen(t *testing.T) {
	db := reopenedFileDB(t, "cast.db", `CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE FUNCTION int_to_mood(i int) RETURNS mood LANGUAGE sql IMMUTABLE AS $$ SELECT CASE i WHEN 1 THEN 'sad'::mood WHEN 2 THEN 'ok'::mood ELSE 'happy'::mood END $$;
CREATE CAST (int AS mood) WITH FUNCTION int_to_mood(int) AS ASSIGNMENT;
CREATE TABLE s (id int PRIMARY KEY, n int, m mood);
INSERT INTO s VALUES (1, 1, 2);
CREATE MATERIALIZED VIEW sv AS SELECT id, n::mood AS c, m FROM s`)
	defer db.Close()
	if err := db.Exec("INSERT INTO s VALUES (2, 3, 1)"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT * FROM sv ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[1 sad ok] [2 happy sad]]"; g != w {
		t.Errorf("view after reopening: got %s, want %s", g, w)
	}
	if err := db.Exec("DROP FUNCTION int_to_mood(int)"); err == nil {
		t.Error("DROP FUNCTION of a cast's function succeeded after reopening")
	}
}
