package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestForeignKeysReopen checks that FOREIGN KEY constraints, their
// actions and a constraint dropped with its parent survive closing and
// opening the file again.
func TestForeignKeysReopen(t *testing.T) {
	db := reopenedFileDB(t, "fk.db", `CREATE TABLE p (id int PRIMARY KEY, code text UNIQUE);
CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p ON DELETE CASCADE, code text, CONSTRAINT c_code FOREIGN KEY (code) REFERENCES p (code) MATCH FULL ON UPDATE SET NULL);
CREATE TABLE node (id int PRIMARY KEY, up int REFERENCES node ON DELETE SET NULL);
CREATE TABLE gone (id int PRIMARY KEY);
CREATE TABLE keeps (id int PRIMARY KEY, g int REFERENCES gone);
INSERT INTO p VALUES (1, 'a'), (2, 'b');
INSERT INTO c VALUES (10, 1, 'a'), (11, 2, 'b');
INSERT INTO node VALUES (1, NULL), (2, 1);
INSERT INTO gone VALUES (1);
INSERT INTO keeps VALUES (1, 1);
DROP TABLE gone CASCADE;
ALTER TABLE p ADD COLUMN extra int;
CREATE TABLE later (id int PRIMARY KEY, pid int);
ALTER TABLE later ADD CONSTRAINT later_p FOREIGN KEY (pid) REFERENCES p`)
	defer db.Close()
	wantCode := func(stmt, code string) {
		t.Helper()
		err := db.Exec(stmt)
		if code == "" && err != nil || code != "" && pgerr.Code(err) != code {
			t.Fatalf("%s: got %v, want SQLSTATE %s", stmt, err, code)
		}
	}
	wantCode("INSERT INTO c VALUES (12, 9, NULL)", "23503")
	wantCode("INSERT INTO node VALUES (3, 7)", "23503")
	wantCode("INSERT INTO keeps VALUES (2, 99)", "")
	wantCode("INSERT INTO later VALUES (1, 9)", "23503")
	wantCode("INSERT INTO later VALUES (1, 2)", "")
	wantCode("DELETE FROM p WHERE id = 2", "23503")
	wantCode("DELETE FROM later", "")
	wantCode("UPDATE p SET code = 'z' WHERE id = 2", "")
	wantCode("DELETE FROM p WHERE id = 1", "")
	wantCode("DELETE FROM node WHERE id = 1", "")
	got := func(q string) string {
		t.Helper()
		rs, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(rs.Rows)
	}
	if g, w := got("SELECT id, pid, code FROM c ORDER BY id"), "[[11 2 NULL]]"; g != w {
		t.Errorf("c holds %s, want %s", g, w)
	}
	if g, w := got("SELECT id, up FROM node ORDER BY id"), "[[2 NULL]]"; g != w {
		t.Errorf("node holds %s, want %s", g, w)
	}
}

// TestForeignKeysTyped checks the typed API's changes against the
// constraints: a change that breaks one fails alone, with 23503, and a
// cascade runs as for a statement.
func TestForeignKeysTyped(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	if err := db.Exec(`CREATE TABLE p (id int PRIMARY KEY);
CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p ON DELETE CASCADE);
INSERT INTO p VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("c", deltaview.Int(10), deltaview.Int(1)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("c", deltaview.Int(11), deltaview.Int(2)); pgerr.Code(err) != "23503" {
		t.Fatalf("insert of an orphan: %v, want 23503", err)
	}
	if err := tx.Replace("p", deltaview.Int(1)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT id, pid FROM c")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[10 1]]"; g != w {
		t.Fatalf("c holds %s, want %s", g, w)
	}
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Delete("p", deltaview.Int(1)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if rs, err = db.Query("SELECT count(*) FROM c"); err != nil || fmt.Sprint(rs.Rows) != "[[0]]" {
		t.Fatalf("after the parent's delete, c holds %v (%v), want none", rs, err)
	}
}
