package deltaview_test

import (
	"fmt"
	"testing"
)

// TestCITextReopen checks that citext columns, their case-insensitive
// keys and a view grouping by one are there, and still ignore case, once
// the file is opened again.
func TestCITextReopen(t *testing.T) {
	db := reopenedFileDB(t, "citext.db", `CREATE EXTENSION citext;
CREATE TABLE u (name citext PRIMARY KEY, team citext);
INSERT INTO u VALUES ('Ann', 'Red'), ('bob', 'RED'), ('Cy', 'blue');
CREATE MATERIALIZED VIEW teams AS SELECT lower(team) AS team, count(*) AS n FROM u GROUP BY team`)
	defer db.Close()
	if err := db.Exec("INSERT INTO u VALUES ('ANN', 'x')"); err == nil {
		t.Error("a key differing only in case was accepted after reopening")
	}
	if err := db.Exec("INSERT INTO u VALUES ('Dee', 'red'); DELETE FROM u WHERE name = 'BOB'"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT team, n FROM teams ORDER BY team")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[blue 1] [red 2]]"; g != w {
		t.Errorf("view after reopening: got %s, want %s", g, w)
	}
	rs, err = db.Query("SELECT name FROM u WHERE name = 'cy'")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[Cy]]"; g != w {
		t.Errorf("lookup after reopening: got %s, want %s", g, w)
	}
}
