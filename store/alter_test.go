package store_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// reopened runs script on a new file, closes it, and returns the answers
// of the queries before closing and after opening the file again.
func reopened(t *testing.T, script string, queries ...string) (before, after [][]string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ddl.db")
	db := open(t, path)
	execSQL(t, db, script)
	for _, q := range queries {
		before = append(before, query(t, db, q))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	for _, q := range queries {
		after = append(after, query(t, db, q))
	}
	return before, after
}

func sameAnswers(t *testing.T, queries []string, before, after [][]string) {
	t.Helper()
	for i, q := range queries {
		if !slices.Equal(before[i], after[i]) {
			t.Errorf("%s: %v before closing, %v after opening again", q, before[i], after[i])
		}
	}
}

// TestTruncateSurvives checks that the rows TRUNCATE deleted stay deleted
// in the file, and that rows inserted after it are kept.
func TestTruncateSurvives(t *testing.T) {
	queries := []string{"SELECT * FROM a ORDER BY k", "SELECT * FROM b", "SELECT * FROM s"}
	before, after := reopened(t, `
		CREATE TABLE a (k int PRIMARY KEY, v text);
		CREATE TABLE b (x int);
		INSERT INTO a SELECT g, 'v' || g FROM generate_series(1, 50) g;
		INSERT INTO b VALUES (1), (2);
		CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n FROM a;
		TRUNCATE a, b;
		INSERT INTO a VALUES (7, 'again');
	`, queries...)
	sameAnswers(t, queries, before, after)
	if len(after[0]) != 1 || len(after[1]) != 0 {
		t.Fatalf("after opening again: a %v, b %v", after[0], after[1])
	}
}

// TestCreateTableAsSurvives checks that tables made by CREATE TABLE … AS,
// SELECT … INTO and CREATE TABLE (LIKE …) are kept with their columns'
// types, their rows and, for LIKE, the defaults, checks and keys copied.
func TestCreateTableAsSurvives(t *testing.T) {
	queries := []string{
		"SELECT * FROM a ORDER BY k",
		"SELECT pg_typeof(k), pg_typeof(v), pg_typeof(w), pg_typeof(lit) FROM a LIMIT 1",
		"SELECT * FROM b ORDER BY k",
		"SELECT * FROM e",
		"SELECT * FROM l ORDER BY id",
	}
	path := filepath.Join(t.TempDir(), "ctas.db")
	db := open(t, path)
	execSQL(t, db, `
		CREATE TABLE src (id int PRIMARY KEY, v varchar(5) NOT NULL DEFAULT 'd"q', w numeric(6,2) CHECK (w > 0));
		INSERT INTO src VALUES (1, 'x', 1.5), (2, 'y', 2.25);
		CREATE TABLE a (k, v) AS SELECT id, v, w, 'lit' AS lit FROM src;
		SELECT id AS k, w * 2 AS w2 INTO b FROM src;
		CREATE TABLE e AS SELECT * FROM src WITH NO DATA;
		CREATE TABLE l (LIKE src INCLUDING ALL);
		INSERT INTO l (id, w) VALUES (5, 1);
	`)
	var before [][]string
	for _, q := range queries {
		before = append(before, query(t, db, q))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	for i, q := range queries {
		if got := query(t, db, q); !slices.Equal(got, before[i]) {
			t.Errorf("%s: %v before closing, %v after opening again", q, before[i], got)
		}
	}
	for _, bad := range []string{"INSERT INTO l (id, w) VALUES (5, 1)", "INSERT INTO l (id, w) VALUES (6, -1)", "INSERT INTO l (id, v, w) VALUES (6, NULL, 1)"} {
		if err := db.Exec(bad); err == nil {
			t.Errorf("after opening again, %s: no error, want the constraint LIKE copied", bad)
		}
	}
}

// TestAlterTableSurvives checks that ALTER TABLE's changes are kept in
// the file: the columns added (with the rows' values), dropped and
// renamed, the table renamed with its privileges, and the constraints
// added and dropped.
func TestAlterTableSurvives(t *testing.T) {
	queries := []string{
		"SELECT * FROM u ORDER BY id",
		"SELECT * FROM k ORDER BY x",
		"SELECT * FROM kv",
		"SELECT pg_typeof(aa) FROM u LIMIT 1",
	}
	path := filepath.Join(t.TempDir(), "alter.db")
	db := open(t, path)
	execSQL(t, db, `
		CREATE TABLE t (id int PRIMARY KEY, a int, b text);
		INSERT INTO t SELECT g, g * 10, 'b' || g FROM generate_series(1, 20) g;
		ALTER TABLE t ADD COLUMN c numeric(5,1) DEFAULT 2.5 NOT NULL, DROP COLUMN b;
		ALTER TABLE t ALTER COLUMN a TYPE bigint;
		ALTER TABLE t RENAME COLUMN a TO aa;
		ALTER TABLE t RENAME TO u;
		ALTER TABLE u ADD CONSTRAINT aa_pos CHECK (aa > 0), ALTER COLUMN c SET DEFAULT 9;
		DELETE FROM u WHERE id > 3;
		INSERT INTO u (id, aa) VALUES (4, 1);
		GRANT SELECT ON u TO PUBLIC;
		CREATE TABLE k (x int, y int UNIQUE);
		INSERT INTO k VALUES (1, 1), (2, 2);
		ALTER TABLE k ADD PRIMARY KEY (x), DROP CONSTRAINT k_y_key;
		CREATE MATERIALIZED VIEW kv AS SELECT sum(y) AS s FROM k;
		ALTER TABLE k ADD CONSTRAINT y_pos CHECK (y > 0);
		INSERT INTO k VALUES (3, 2);
	`)
	var before [][]string
	for _, q := range queries {
		before = append(before, query(t, db, q))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	for i, q := range queries {
		if got := query(t, db, q); !slices.Equal(got, before[i]) {
			t.Errorf("%s: %v before closing, %v after opening again", q, before[i], got)
		}
	}
	for _, bad := range []string{"INSERT INTO u (id, aa) VALUES (5, -1)", "INSERT INTO u (id, aa) VALUES (4, 1)", "INSERT INTO k VALUES (3, 0)", "SELECT * FROM t"} {
		if err := db.Exec(bad); err == nil {
			t.Errorf("after opening again, %s: no error", bad)
		}
	}
	execSQL(t, db, "INSERT INTO u (id, aa) VALUES (5, 1); INSERT INTO k VALUES (4, 2)")
	if got := query(t, db, "SELECT c FROM u WHERE id = 5"); len(got) != 1 || !strings.Contains(got[0], "9") {
		t.Errorf("after opening again, the default set by ALTER TABLE gives %v", got)
	}
}
