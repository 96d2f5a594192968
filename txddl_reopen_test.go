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

// TestTxDDLCatalogReopen checks the file after blocks of the catalog
// changes that run inside a block since roles, domains, row security,
// partitions, trigger and rule modes, statistics and REFRESH joined them:
// what a block committed is in the file, what a block rolled back (or
// rolled back to a savepoint) is not.
func TestTxDDLCatalogReopen(t *testing.T) {
	db := reopenedFileDB(t, "txddl_catalog.db", `CREATE TABLE t (a int PRIMARY KEY, b int);
INSERT INTO t VALUES (1, 10), (2, 20);
CREATE TABLE m (k int, v text) PARTITION BY RANGE (k);
CREATE TABLE m1 PARTITION OF m FOR VALUES FROM (0) TO (10);
INSERT INTO m VALUES (1, 'a');
CREATE TABLE m2 (k int, v text);
INSERT INTO m2 VALUES (15, 'b');
CREATE TABLE log (what text);
CREATE FUNCTION logit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log VALUES (TG_OP); RETURN NEW; END $$;
CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION logit();
CREATE MATERIALIZED VIEW mv AS SELECT a, b FROM t WITH NO DATA;
BEGIN;
CREATE ROLE app;
CREATE DOMAIN pos AS int CHECK (VALUE > 0);
CREATE TABLE d (x pos);
INSERT INTO d VALUES (3);
ALTER TABLE t ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON t TO app USING (a > 1);
ALTER TABLE m ATTACH PARTITION m2 FOR VALUES FROM (10) TO (20);
CREATE TABLE m3 PARTITION OF m FOR VALUES FROM (20) TO (30);
INSERT INTO m VALUES (25, 'c');
ALTER TABLE t DISABLE TRIGGER tr;
CREATE STATISTICS st ON a, b FROM t;
REFRESH MATERIALIZED VIEW mv;
SAVEPOINT s;
CREATE ROLE gone;
ALTER DOMAIN pos ADD CONSTRAINT pos_small CHECK (VALUE < 10);
DROP POLICY p ON t;
ROLLBACK TO s;
COMMIT;
BEGIN;
CREATE ROLE never;
ALTER DOMAIN pos DROP CONSTRAINT pos_check;
ALTER TABLE m DETACH PARTITION m1;
ALTER TABLE t ENABLE TRIGGER tr;
ALTER POLICY p ON t RENAME TO q;
DROP STATISTICS st;
REFRESH MATERIALIZED VIEW mv WITH NO DATA;
ROLLBACK`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT rolname FROM pg_roles WHERE rolname IN ('app', 'gone', 'never') ORDER BY 1", "[[app]]"},
		{"SELECT * FROM d", "[[3]]"},
		{"SELECT polname FROM pg_policy", "[[p]]"},
		{"SELECT relrowsecurity FROM pg_class WHERE relname = 't'", "[[t]]"},
		{"SELECT * FROM m ORDER BY k", "[[1 a] [15 b] [25 c]]"},
		{"SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid ORDER BY 1", "[[m1] [m2] [m3]]"},
		{"SELECT tgenabled FROM pg_trigger WHERE tgname = 'tr'", "[[D]]"},
		{"SELECT stxname FROM pg_statistic_ext", "[[st]]"},
		{"SELECT * FROM mv ORDER BY a", "[[1 10] [2 20]]"},
	})
	if err := db.Exec(`INSERT INTO t VALUES (3, 30); INSERT INTO m VALUES (16, 'd')`); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO d VALUES (11)`); err != nil {
		t.Fatal(err) // pos_small was rolled back to the savepoint
	}
	if err := db.Exec(`INSERT INTO d VALUES (-1)`); err == nil {
		t.Fatal("the domain's CHECK is not kept")
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM mv ORDER BY a", "[[1 10] [2 20] [3 30]]"},
		{"SELECT count(*) FROM log", "[[0]]"},
		{"SELECT * FROM m2 ORDER BY k", "[[15 b] [16 d]]"},
	})
}

// TestTxDDLOwnedReopen checks the file after REASSIGN OWNED and a DO
// block's catalog changes inside blocks: committed, they are in the file;
// rolled back, or caught by the DO block's EXCEPTION handler, they are not.
func TestTxDDLOwnedReopen(t *testing.T) {
	db := reopenedFileDB(t, "txddl_owned.db", `CREATE ROLE a1;
CREATE ROLE a2;
CREATE TABLE o1 (x int);
ALTER TABLE o1 OWNER TO a1;
BEGIN;
REASSIGN OWNED BY a1 TO a2;
DO $$
BEGIN
  CREATE TABLE d1 (y int);
  INSERT INTO d1 VALUES (1);
  BEGIN
    CREATE TABLE d2 (z int);
    PERFORM 1 / 0;
  EXCEPTION WHEN division_by_zero THEN NULL;
  END;
END $$;
COMMIT;
BEGIN;
REASSIGN OWNED BY a2 TO a1;
DO $$ BEGIN CREATE TABLE d3 (w int); DROP TABLE d1; END $$;
ROLLBACK`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'o1'", "[[a2]]"},
		{"SELECT relname FROM pg_class WHERE relname IN ('d1', 'd2', 'd3') ORDER BY 1", "[[d1]]"},
		{"SELECT * FROM d1", "[[1]]"},
	})
}
