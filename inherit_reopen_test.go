package deltaview_test

import (
	"fmt"
	"testing"
)

// TestInheritanceReopen checks that the tables of an inheritance
// hierarchy, their links (made by INHERITS and by ALTER TABLE … INHERIT,
// one undone by NO INHERIT, a child whose parent gained a column later)
// and their rows are what they were after the file is opened again, and
// that a view over the root reads the hierarchy as it was left.
func TestInheritanceReopen(t *testing.T) {
	db := reopenedFileDB(t, "inherit.db", `CREATE TABLE top_ (k int, v int NOT NULL CHECK (v >= 0));
CREATE TABLE mid (m text) INHERITS (top_);
CREATE TABLE low (z int, v int) INHERITS (mid);
CREATE TABLE side (v int NOT NULL, k int, CHECK (v >= 0), CONSTRAINT top__v_check CHECK (v >= 0));
CREATE TABLE gone (k int, v int NOT NULL, CONSTRAINT top__v_check CHECK (v >= 0));
CREATE MATERIALIZED VIEW tot AS SELECT count(*) AS n, sum(v) AS s FROM top_;
INSERT INTO top_ VALUES (1, 10);
INSERT INTO mid VALUES (2, 20, 'm');
INSERT INTO low VALUES (3, 30, 'l', 9);
INSERT INTO side VALUES (40, 4);
INSERT INTO gone VALUES (5, 50);
ALTER TABLE side INHERIT top_;
ALTER TABLE gone INHERIT top_;
ALTER TABLE gone NO INHERIT top_;
CREATE TABLE ser (id serial) INHERITS (top_);
INSERT INTO ser (k, v) VALUES (8, 0)`)
	defer db.Close()
	check := func(q, want string) {
		t.Helper()
		wantRows(t, db, []queryRows{{q, want}})
	}
	check("SELECT tableoid::regclass::text, k, v FROM top_ ORDER BY k", "[[top_ 1 10] [mid 2 20] [low 3 30] [side 4 40] [ser 8 0]]")
	check("SELECT * FROM tot", "[[5 100]]")
	if err := db.Exec("INSERT INTO ser (k, v) VALUES (9, 0)"); err != nil {
		t.Fatal(err)
	}
	check("SELECT id FROM ser ORDER BY id", "[[1] [2]]")
	check("SELECT k FROM mid ORDER BY k", "[[2] [3]]")
	check("SELECT * FROM low", "[[3 30 l 9]]")
	check("SELECT inhrelid::regclass::text, inhparent::regclass::text, inhseqno FROM pg_inherits ORDER BY 1", "[[low mid 1] [mid top_ 1] [ser top_ 1] [side top_ 1]]")
	if err := db.Exec("INSERT INTO low VALUES (6, -1, 'x', 0)"); err == nil {
		t.Error("a row breaking an inherited CHECK after reopening was accepted")
	}
	if err := db.Exec("UPDATE top_ SET v = v + 1; DELETE FROM top_ WHERE k = 2"); err != nil {
		t.Fatal(err)
	}
	check("SELECT * FROM tot", "[[5 85]]")
	if err := db.Exec("DROP TABLE mid"); err == nil {
		t.Error("DROP TABLE of a parent without CASCADE after reopening was accepted")
	}
}

// TestInheritanceReopenAlter checks that what a child has from its
// parents alone (PostgreSQL's attislocal) and the links of a renamed
// table survive opening the file again: a parent's DROP COLUMN then drops
// the child's inherited column and keeps the one it declared, and its
// DROP CONSTRAINT the children's inherited CHECK.
func TestInheritanceReopenAlter(t *testing.T) {
	db := reopenedFileDB(t, "inherit.db", `CREATE TABLE dp (a int, b int);
CREATE TABLE dc (b int, c int) INHERITS (dp);
CREATE TABLE dg () INHERITS (dc);
ALTER TABLE dp ADD COLUMN e int;
ALTER TABLE dp ADD CONSTRAINT pos CHECK (b > 0);
ALTER TABLE dg ADD CONSTRAINT small CHECK (c < 10);
INSERT INTO dg VALUES (1, 2, 3, 4);
ALTER TABLE dc RENAME TO dc2`)
	defer db.Close()
	if err := db.Exec("ALTER TABLE dp DROP CONSTRAINT pos"); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("ALTER TABLE dg DROP CONSTRAINT small"); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("ALTER TABLE dp DROP COLUMN a, DROP COLUMN b, DROP COLUMN e"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT attname FROM pg_attribute WHERE attrelid = 'dg'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum")
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[b] [c]]" {
		t.Errorf("dg's columns after the parent dropped a, b and e: %s, want [[b] [c]]", g)
	}
	rs, err = db.Query("SELECT count(*) FROM pg_constraint WHERE contype = 'c' AND conrelid <> 0")
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[0]]" {
		t.Errorf("CHECK constraints left after the parent dropped its own: %s", g)
	}
	rs, err = db.Query("SELECT inhrelid::regclass::text, inhparent::regclass::text FROM pg_inherits ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[dc2 dp] [dg dc2]]" {
		t.Errorf("links: %s", g)
	}
}
