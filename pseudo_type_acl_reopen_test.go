package deltaview_test

import (
	"fmt"
	"testing"
)

// TestPseudoTypePrivilegesReopen checks that a superuser's grants on
// pseudo-types are in pg_type.typacl once the file is opened again.
func TestPseudoTypePrivilegesReopen(t *testing.T) {
	db := reopenedFileDB(t, "pseudo_type_acl.db", `CREATE ROLE e9_pa;
GRANT USAGE ON TYPE anyelement TO e9_pa;
GRANT USAGE ON TYPE record TO e9_pa WITH GRANT OPTION;
REVOKE USAGE ON TYPE record FROM PUBLIC`)
	defer db.Close()
	rs, err := db.Query("SELECT typname, typacl::text FROM pg_type WHERE typacl IS NOT NULL ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	want := "[[anyelement {=U/deltaview,deltaview=U/deltaview,e9_pa=U/deltaview}] [record {deltaview=U/deltaview,e9_pa=U*/deltaview}]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("typacl after reopening:\n got %s\nwant %s", g, want)
	}
}
