package deltaview_test

import (
	"testing"
)

// TestTxDDLReopen checks that a migration committed in a transaction
// block is in the file whole: the tables it created and altered with
// their rows (a row inserted before an ALTER TABLE that rewrites the
// table is there once, under the new columns), its indexes, and the
// materialized view it created, maintained after the file opens again.
func TestTxDDLReopen(t *testing.T) {
	db := reopenedFileDB(t, "txddl.db", `CREATE TABLE users (id int PRIMARY KEY, name text);
INSERT INTO users VALUES (1, 'ann');
CREATE TABLE gone (x int);
INSERT INTO gone VALUES (1);
BEGIN;
INSERT INTO users VALUES (2, 'bob');
ALTER TABLE users ADD COLUMN email text DEFAULT 'none';
UPDATE users SET email = name || '@x';
ALTER TABLE users ALTER COLUMN email SET NOT NULL;
CREATE TABLE posts (id int PRIMARY KEY, user_id int REFERENCES users (id), title text);
CREATE INDEX posts_user ON posts (user_id);
INSERT INTO posts VALUES (1, 1, 'a');
SAVEPOINT s;
CREATE TABLE tmp (y int);
INSERT INTO posts VALUES (2, 2, 'b');
ROLLBACK TO s;
DROP TABLE gone;
CREATE MATERIALIZED VIEW per_user AS SELECT user_id, count(*) AS n FROM posts GROUP BY user_id;
INSERT INTO posts VALUES (3, 2, 'c');
COMMIT`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT * FROM users ORDER BY id", "[[1 ann ann@x] [2 bob bob@x]]"},
		{"SELECT * FROM posts ORDER BY id", "[[1 1 a] [3 2 c]]"},
		{"SELECT * FROM per_user ORDER BY user_id", "[[1 1] [2 1]]"},
		{"SELECT count(*) FROM pg_class WHERE relname IN ('tmp', 'gone')", "[[0]]"},
		{"SELECT indexname FROM pg_indexes WHERE tablename = 'posts' ORDER BY 1", "[[posts_pkey] [posts_user]]"},
		{"SELECT is_nullable FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'email'", "[[NO]]"},
	})
	if err := db.Exec(`INSERT INTO posts VALUES (4, 1, 'd')`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{{"SELECT * FROM per_user ORDER BY user_id", "[[1 2] [2 1]]"}})
}

// TestTxDDLRollbackReopen checks that a block rolled back leaves no
// trace in the file, and that one still open when the database closes is
// rolled back: the file holds what it held before BEGIN.
func TestTxDDLRollbackReopen(t *testing.T) {
	db, path := openFileDB(t, "txddl_rollback.db")
	if err := db.Exec(`CREATE TABLE t (a int PRIMARY KEY, b text);
INSERT INTO t VALUES (1, 'x');
CREATE TABLE keep (k int);
INSERT INTO keep VALUES (7);
BEGIN;
INSERT INTO t VALUES (2, 'y');
ALTER TABLE t ADD COLUMN c int DEFAULT 5;
CREATE TABLE n (z int);
INSERT INTO n VALUES (1);
DROP TABLE keep;
ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	s := db.Session()
	sessionExec(t, s, `BEGIN`)
	sessionExec(t, s, `CREATE TABLE open1 (a int)`)
	sessionExec(t, s, `INSERT INTO open1 VALUES (1)`)
	sessionExec(t, s, `ALTER TABLE t DROP COLUMN b`)
	sessionExec(t, s, `INSERT INTO t VALUES (3)`)
	sessionExec(t, s, `DROP TABLE keep`)
	db = reopenFileDB(t, db, path)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT * FROM t ORDER BY a", "[[1 x]]"},
		{"SELECT * FROM keep", "[[7]]"},
		{"SELECT count(*) FROM pg_class WHERE relname IN ('n', 'open1')", "[[0]]"},
	})
	// The file takes changes again.
	if err := db.Exec(`BEGIN; CREATE TABLE n (z int); INSERT INTO n VALUES (2); INSERT INTO t VALUES (4, 'w'); COMMIT`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{{"SELECT * FROM n", "[[2]]"}, {"SELECT a FROM t ORDER BY a", "[[1] [4]]"}})
}

// TestTxDDLSavepointReopen checks the file after ROLLBACK TO a savepoint
// across catalog changes: a table altered and dropped after the savepoint
// is back in the file as it was, and takes rows again in the same block.
func TestTxDDLSavepointReopen(t *testing.T) {
	db := reopenedFileDB(t, "txddl_sp.db", `CREATE TABLE t (a int PRIMARY KEY, b text);
INSERT INTO t VALUES (1, 'x');
BEGIN;
INSERT INTO t VALUES (2, 'y');
SAVEPOINT s;
ALTER TABLE t ADD COLUMN c int DEFAULT 3;
INSERT INTO t VALUES (3, 'z', 4);
DROP TABLE t;
CREATE TABLE t (q text);
ROLLBACK TO s;
INSERT INTO t VALUES (5, 'w');
SAVEPOINT s2;
CREATE TABLE u (k int);
INSERT INTO u VALUES (1);
ALTER TABLE t DROP COLUMN b;
ROLLBACK TO s2;
CREATE TABLE v (k int);
INSERT INTO v VALUES (9);
COMMIT`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT * FROM t ORDER BY a", "[[1 x] [2 y] [5 w]]"},
		{"SELECT * FROM v", "[[9]]"},
		{"SELECT count(*) FROM pg_class WHERE relname = 'u'", "[[0]]"},
	})
	if err := db.Exec(`INSERT INTO t VALUES (6, 'v'); INSERT INTO v VALUES (10)`); err != nil {
		t.Fatal(err)
	}
}

// TestTxDDLOwnerReopen checks that OWNER TO and ALTER FUNCTION made in a
// block (a pg_dump script restored with psql -1) are in the file once
// committed, and not once rolled back.
func TestTxDDLOwnerReopen(t *testing.T) {
	db := reopenedFileDB(t, "txddl_owner.db", `CREATE ROLE app;
CREATE TABLE items (id int PRIMARY KEY);
CREATE FUNCTION f(int) RETURNS int LANGUAGE sql AS $$ SELECT $1 + 1 $$;
BEGIN;
ALTER TABLE items OWNER TO app;
ALTER FUNCTION f(int) OWNER TO app;
ALTER FUNCTION f(int) RENAME TO g;
COMMIT;
BEGIN;
ALTER TABLE items OWNER TO CURRENT_USER;
ALTER FUNCTION g(int) RENAME TO h;
ROLLBACK`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'items'", "[[app]]"},
		{"SELECT proname, pg_get_userbyid(proowner) FROM pg_proc WHERE proname IN ('f', 'g', 'h')", "[[g app]]"},
	})
}
