package deltaview_test

import (
	"fmt"
	"testing"
)

// TestBuiltinTypePrivilegesReopen checks that a superuser's grants on
// built-in types are in pg_type.typacl once the file is opened again,
// and still gate the columns a role adds.
func TestBuiltinTypePrivilegesReopen(t *testing.T) {
	db := reopenedFileDB(t, "types8_acl.db", `CREATE ROLE t8_r1;
CREATE ROLE t8_r2;
REVOKE USAGE ON TYPE int8 FROM PUBLIC;
GRANT USAGE ON TYPE int8 TO t8_r2;
GRANT USAGE ON TYPE int4range TO t8_r1;
CREATE TABLE t8_rt (a int);
ALTER TABLE t8_rt OWNER TO t8_r1;
CREATE TYPE t8_rm AS ENUM ('a');
ALTER TYPE t8_rm RENAME TO t8_rn`)
	defer db.Close()
	rs, err := db.Query("SELECT typname, typacl::text FROM pg_type WHERE typacl IS NOT NULL ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[int4range {=U/deltaview,deltaview=U/deltaview,t8_r1=U/deltaview}] [int8 {deltaview=U/deltaview,t8_r2=U/deltaview}]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("typacl after reopening:\n got %s\nwant %s", g, want)
	}
	s, err := db.SessionAs("t8_r1")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Exec("ALTER TABLE t8_rt ADD COLUMN b int4range"); err != nil {
		t.Errorf("t8_r1 holds USAGE on int4range: %v", err)
	}
	if err := s.Exec("ALTER TABLE t8_rt ADD COLUMN c bigint[]"); err == nil || err.Error() != "permission denied for type bigint" {
		t.Errorf("t8_r1 lacks USAGE on int8: got %v", err)
	}
}

// TestRangeTypeCatalogReopen checks that a range type kept in the file is
// in pg_type, with its multirange type and its privileges, once the file
// is opened again.
func TestRangeTypeCatalogReopen(t *testing.T) {
	db := reopenedFileDB(t, "types8_range.db", `CREATE ROLE t8_r3;
CREATE TYPE t8_fr AS RANGE (subtype = float8);
GRANT USAGE ON TYPE t8_fr TO t8_r3`)
	defer db.Close()
	rs, err := db.Query("SELECT typname, typtype, to_regtype(typname)::text, typacl::text FROM pg_type WHERE typname ~ '^_?t8_fr' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[_t8_fr b t8_fr[] NULL] [_t8_fr_multirange b t8_fr_multirange[] NULL] [t8_fr r t8_fr {=U/deltaview,deltaview=U/deltaview,t8_r3=U/deltaview}] [t8_fr_multirange m t8_fr_multirange NULL]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("pg_type after reopening:\n got %s\nwant %s", g, want)
	}
}
