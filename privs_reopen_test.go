package deltaview_test

import (
	"fmt"
	"testing"
)

// TestRoutineSecurityReopen checks that a routine's SECURITY DEFINER, its
// settings (FROM CURRENT ones with the value they read) and its owner (the
// superuser role that made it, or the one OWNER TO gave it), and the
// column defaults reading current_user, are what they were after the file
// is opened again.
func TestRoutineSecurityReopen(t *testing.T) {
	db := reopenedFileDB(t, "privs.db", `CREATE ROLE admin SUPERUSER;
CREATE ROLE reader;
CREATE ROLE owner1;
CREATE TABLE secret (id int PRIMARY KEY, who text DEFAULT current_user);
INSERT INTO secret (id) VALUES (1);
GRANT SELECT ON secret TO owner1;
GRANT INSERT ON secret TO reader;
CREATE FUNCTION n() RETURNS bigint LANGUAGE sql SECURITY DEFINER SET work_mem = '8MB' AS 'SELECT count(*) FROM secret';
ALTER FUNCTION n() OWNER TO owner1;
SET work_mem = '3MB';
CREATE FUNCTION wm() RETURNS text LANGUAGE plpgsql SET work_mem FROM CURRENT AS $$BEGIN RETURN current_setting('work_mem'); END$$;
SET work_mem = '6MB';
CREATE FUNCTION wm2() RETURNS text LANGUAGE sql SET extra_float_digits = 1 AS $$SELECT current_setting('work_mem')$$;
ALTER FUNCTION wm2() SET work_mem FROM CURRENT;
ALTER FUNCTION wm2() RESET extra_float_digits;
RESET work_mem;
CREATE FUNCTION inv() RETURNS bigint LANGUAGE sql SECURITY DEFINER AS 'SELECT count(*) FROM secret';
ALTER FUNCTION inv() SECURITY INVOKER;
SET ROLE admin;
CREATE PROCEDURE p(INOUT r text) LANGUAGE plpgsql SECURITY DEFINER AS $$BEGIN r := current_user; END$$;
RESET ROLE`)
	defer db.Close()
	rs, err := db.Query("SELECT proname, prosecdef, coalesce(array_to_string(proconfig, ';'), '-'), proowner::regrole::text FROM pg_proc WHERE proname IN ('n', 'wm', 'wm2', 'inv', 'p') ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[inv f - deltaview] [n t work_mem=8MB owner1] [p t - admin] [wm f work_mem=3MB deltaview] [wm2 f work_mem=6MB deltaview]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("pg_proc after reopening:\n got %s\nwant %s", g, want)
	}
	s, err := db.SessionAs("reader")
	if err != nil {
		t.Fatal(err)
	}
	sessionExec(t, s, "INSERT INTO secret (id) VALUES (2)")
	for q, w := range map[string]string{
		"SELECT n()":                         "2",
		"SELECT wm() || ' ' || wm2()":        "3MB 6MB",
		"SELECT current_setting('work_mem')": "4MB",
		"CALL p(NULL)":                       "admin",
		"SELECT current_user":                "reader",
	} {
		if g, err := firstValue(s, q); err != nil || g != w {
			t.Errorf("%s as reader after reopening: got %q (%v), want %q", q, g, err, w)
		}
	}
	if _, err := firstValue(s, "SELECT inv()"); err == nil {
		t.Errorf("SELECT inv() as reader: want permission denied, the function being SECURITY INVOKER again")
	}
	rs, err = db.Query("SELECT id, who FROM secret ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[1 deltaview] [2 reader]]"; g != w {
		t.Errorf("DEFAULT current_user after reopening: got %s, want %s", g, w)
	}
}

// TestRoutineSecurityMovedReopen checks that a routine's owner and
// settings follow it into another schema and are kept there by the file.
func TestRoutineSecurityMovedReopen(t *testing.T) {
	db := reopenedFileDB(t, "privs_moved.db", `CREATE ROLE owner1;
CREATE SCHEMA s2;
CREATE FUNCTION n() RETURNS text LANGUAGE sql SECURITY DEFINER SET work_mem = '8MB' AS $$SELECT current_user::text || ' ' || current_setting('work_mem')$$;
ALTER FUNCTION n() OWNER TO owner1;
ALTER FUNCTION n() SET SCHEMA s2;
ALTER FUNCTION s2.n() RENAME TO m`)
	defer db.Close()
	rs, err := db.Query("SELECT s2.m(), (SELECT proowner::regrole::text FROM pg_proc WHERE proname = 'm')")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[owner1 8MB owner1]]"; g != w {
		t.Errorf("moved function after reopening: got %s, want %s", g, w)
	}
}
