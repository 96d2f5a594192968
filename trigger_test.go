package deltaview_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestTriggersReopen checks that triggers survive closing and opening
// the file again: their function's body as last replaced, a disabled one
// still disabled, a dropped one gone, and those of a dropped table gone.
func TestTriggersReopen(t *testing.T) {
	db := reopenedFileDB(t, "trig.db", `CREATE TABLE t (id int PRIMARY KEY, v int);
CREATE TABLE log (id int, v int);
CREATE TABLE gone (a int);
CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := NEW.v + 1; RETURN NEW; END $$;
CREATE FUNCTION logit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log VALUES (NEW.id, NEW.v); RETURN NULL; END $$;
CREATE TRIGGER a_bump BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION bump();
CREATE TRIGGER b_log AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION logit();
CREATE TRIGGER c_off BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION bump();
CREATE TRIGGER d_gone BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION bump();
CREATE TRIGGER g BEFORE INSERT ON gone FOR EACH ROW EXECUTE FUNCTION bump();
ALTER TABLE t DISABLE TRIGGER c_off;
DROP TRIGGER d_gone ON t;
DROP TABLE gone;
CREATE OR REPLACE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := NEW.v + 100; RETURN NEW; END $$;
CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n, sum(v) AS s FROM log`)
	defer db.Close()
	if err := db.Exec("INSERT INTO t VALUES (1, 1)"); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT * FROM t":  "[[1 101]]",
		"SELECT * FROM mv": "[[1 101]]",
		"SELECT tgname, tgenabled FROM pg_trigger ORDER BY tgname": "[[a_bump O] [b_log O] [c_off D]]",
	} {
		rs, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rs.Rows); got != want {
			t.Errorf("after reopening: %s: got %s, want %s", q, got, want)
		}
	}
}

// TestTriggersTypedAPI checks that the typed API fires triggers as a
// statement of one row does, and that a trigger's error takes back the
// change alone.
func TestTriggersTypedAPI(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, v int);
CREATE TABLE log (op text, id int, v int);
CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.v < 0 THEN RAISE EXCEPTION 'negative'; END IF; NEW.v := NEW.v * 10; RETURN NEW; END $$;
CREATE FUNCTION logit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN INSERT INTO log VALUES (TG_OP, NULL, NULL);
  ELSIF TG_OP = 'DELETE' THEN INSERT INTO log VALUES (TG_OP, OLD.id, OLD.v);
  ELSE INSERT INTO log VALUES (TG_OP, NEW.id, NEW.v); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER a BEFORE INSERT OR UPDATE ON t FOR EACH ROW EXECUTE FUNCTION bump();
CREATE TRIGGER b AFTER INSERT OR UPDATE OR DELETE ON t FOR EACH ROW EXECUTE FUNCTION logit();
CREATE TRIGGER c AFTER INSERT OR UPDATE OR DELETE ON t FOR EACH STATEMENT EXECUTE FUNCTION logit();
CREATE MATERIALIZED VIEW mv AS SELECT op, count(*) AS n FROM log GROUP BY op`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []func() error{
		func() error { return tx.Insert("t", deltaview.Int(1), deltaview.Int(1)) },
		func() error { return tx.Insert("t", deltaview.Int(2), deltaview.Int(2)) },
		func() error { return tx.Replace("t", deltaview.Int(1), deltaview.Int(3)) },
		func() error {
			return tx.Update("t", []deltaview.Value{deltaview.Int(2), deltaview.Int(20)}, []deltaview.Value{deltaview.Int(2), deltaview.Int(4)})
		},
		func() error { return tx.Delete("t", deltaview.Int(1), deltaview.Int(30)) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Insert("t", deltaview.Int(5), deltaview.Int(-1)); pgerr.Code(err) != "P0001" {
		t.Fatalf("a trigger's error: got %v, want P0001", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT * FROM t":                  "[[2 40]]",
		"SELECT * FROM log ORDER BY op, v": "[[DELETE 1 30] [DELETE NULL NULL] [INSERT 1 10] [INSERT 2 20] [INSERT NULL NULL] [INSERT NULL NULL] [UPDATE 1 30] [UPDATE 2 40] [UPDATE NULL NULL] [UPDATE NULL NULL]]",
		"SELECT * FROM mv ORDER BY op":     "[[DELETE 2] [INSERT 4] [UPDATE 4]]",
	} {
		rs, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rs.Rows); got != want {
			t.Errorf("%s: got %s, want %s", q, got, want)
		}
	}
}

// TestTriggersCancel checks that a statement whose trigger takes back its
// row gives its views no delta, and that a trigger's rewrite reaches the
// view in the statement's one delta.
func TestTriggersCancel(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, v int);
CREATE FUNCTION undo() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM t WHERE id = NEW.id; RETURN NULL; END $$;
CREATE FUNCTION twice() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := NEW.v * 2; RETURN NEW; END $$;
CREATE TRIGGER a_undo AFTER INSERT ON t FOR EACH ROW WHEN (NEW.id > 0) EXECUTE FUNCTION undo();
CREATE TRIGGER b_twice BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION twice();
CREATE MATERIALIZED VIEW v AS SELECT id, v FROM t`); err != nil {
		t.Fatal(err)
	}
	deltas := make(chan deltaview.Delta, 10)
	cancel, err := db.Subscribe("v", func(d deltaview.Delta) { deltas <- d })
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	if err := db.Exec("INSERT INTO t VALUES (1, 1), (2, 2)"); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("INSERT INTO t VALUES (-1, 5)"); err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-deltas:
		if got, want := fmt.Sprint(d.Changes), "[{[-1 10] 1}]"; got != want {
			t.Fatalf("the first delta: got %s, want %s (the cancelled statement gives none)", got, want)
		}
	case <-time.After(subWait):
		t.Fatal("no delta")
	}
	select {
	case d := <-deltas:
		t.Fatalf("another delta: %v", d)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestTriggersReopenKinds checks that the triggers of views, with
// transition tables, constraint triggers and the triggers of a table
// altered since (renamed, a column renamed) are stored and recreated at
// open, and fire as before.
func TestTriggersReopenKinds(t *testing.T) {
	db := reopenedFileDB(t, "trig.db", `CREATE TABLE t (id int PRIMARY KEY, v int);
CREATE TABLE log (what text, n bigint);
CREATE FUNCTION counted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log SELECT TG_NAME, count(*) FROM nt; RETURN NULL; END $$;
CREATE FUNCTION checked() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log VALUES (TG_NAME, NEW.val); RETURN NULL; END $$;
CREATE TRIGGER t_count AFTER INSERT ON t REFERENCING NEW TABLE AS nt FOR EACH STATEMENT EXECUTE FUNCTION counted();
CREATE CONSTRAINT TRIGGER t_check AFTER UPDATE OF v ON t DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.v > 0) EXECUTE FUNCTION checked();
ALTER TABLE t RENAME COLUMN v TO val;
ALTER TABLE t RENAME TO u;
CREATE VIEW uv AS SELECT id, val FROM u;
CREATE FUNCTION uv_ins() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO u VALUES (NEW.id, NEW.val); RETURN NEW; END $$;
CREATE TRIGGER uv_i INSTEAD OF INSERT ON uv FOR EACH ROW EXECUTE FUNCTION uv_ins()`)
	defer db.Close()
	if err := db.Exec("INSERT INTO uv VALUES (1, 0), (2, 0); BEGIN; UPDATE u SET val = 5 WHERE id = 1; COMMIT"); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT * FROM u ORDER BY id":                                            "[[1 5] [2 0]]",
		"SELECT * FROM log ORDER BY what":                                        "[[t_check 5] [t_count 1] [t_count 1]]",
		"SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgname = 't_check'": "[[CREATE CONSTRAINT TRIGGER t_check AFTER UPDATE OF val ON public.u DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (new.val > 0) EXECUTE FUNCTION checked()]]",
	} {
		rs, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rs.Rows); got != want {
			t.Errorf("after reopening: %s: got %s, want %s", q, got, want)
		}
	}
}
