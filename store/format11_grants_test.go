package store_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
)

// TestFormat11TableAll: a file of format 11 kept a table's REFERENCES and
// TRIGGER only within ALL (its five other privileges spelt alone, in
// grants and in default privileges on TABLES); opened, it holds them
// (arwdDxt, with their grant options when the five had theirs), and a
// grant of the five alone made afterwards keeps them apart.
func TestFormat11TableAll(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v11.db")
	db := open(t, path)
	execSQL(t, db, `CREATE ROLE f11_a; CREATE ROLE f11_b; CREATE ROLE f11_c; CREATE TABLE t (x int);
		GRANT ALL ON t TO f11_a; GRANT ALL ON t TO f11_b WITH GRANT OPTION; GRANT SELECT, UPDATE ON t TO f11_c;
		ALTER DEFAULT PRIVILEGES FOR ROLE f11_c GRANT ALL ON TABLES TO f11_a`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"UPDATE deltaview_grants SET privileges = 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE' WHERE role = 'f11_a'",
		"UPDATE deltaview_grants SET privileges = 'SELECT*, INSERT*, UPDATE*, DELETE*, TRUNCATE*' WHERE role = 'f11_b'",
		"UPDATE deltaview_catalog SET sql = replace(sql, ' GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON TABLES ', ' GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON TABLES ') WHERE kind = 'default privileges'",
		"ALTER TABLE deltaview_types DROP COLUMN sorts",
		"PRAGMA user_version = 11",
	} {
		if res, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		} else if n, _ := res.RowsAffected(); n != 1 && q[0] == 'U' {
			t.Fatalf("%s: %d rows, want 1", q, n)
		}
	}
	raw.Close()
	want := []string{"aclitem[]:{deltaview=arwdDxt/deltaview,f11_a=arwdDxt/deltaview,f11_b=a*r*w*d*D*x*t*/deltaview,f11_c=rw/deltaview}"}
	wantDef := []string{"aclitem[]:{f11_a=arwdDxt/f11_c,f11_c=arwdDxt/f11_c}"}
	for i := range 2 {
		db = open(t, path)
		if got := query(t, db, "SELECT relacl FROM pg_class WHERE relname = 't'"); !slices.Equal(got, want) {
			t.Errorf("open %d: relacl %q, want %q", i+1, got, want)
		}
		if got := query(t, db, "SELECT defaclacl FROM pg_default_acl"); !slices.Equal(got, wantDef) {
			t.Errorf("open %d: defaclacl %q, want %q", i+1, got, wantDef)
		}
		if i == 0 {
			execSQL(t, db, "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON t TO f11_c")
			want = []string{"aclitem[]:{deltaview=arwdDxt/deltaview,f11_a=arwdDxt/deltaview,f11_b=a*r*w*d*D*x*t*/deltaview,f11_c=arwdD/deltaview}"}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	checkFormatUpgraded(t, path)
}
