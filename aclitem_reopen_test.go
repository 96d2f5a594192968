package deltaview_test

import (
	"fmt"
	"testing"
)

// TestACLColumnsReopen checks that relacl, nspacl and proacl, which are
// read from the privileges the file keeps, are what they were after the
// file is opened again.
func TestACLColumnsReopen(t *testing.T) {
	const query = `SELECT (SELECT relacl::text FROM pg_class WHERE relname = 'acr_t'),
  (SELECT nspacl::text FROM pg_namespace WHERE nspname = 'acr_n'),
  (SELECT proacl::text FROM pg_proc WHERE proname = 'acr_f'),
  (SELECT count(*) FROM pg_class c, aclexplode(c.relacl) a WHERE c.relname = 'acr_t')`
	db := reopenedFileDB(t, "acl.db", `CREATE ROLE acr_o;
CREATE ROLE acr_a;
CREATE TABLE acr_t (x int);
ALTER TABLE acr_t OWNER TO acr_o;
GRANT SELECT, UPDATE ON acr_t TO acr_a;
GRANT SELECT ON acr_t TO PUBLIC;
CREATE SCHEMA acr_n AUTHORIZATION acr_o;
GRANT USAGE ON SCHEMA acr_n TO acr_a;
CREATE FUNCTION acr_f() RETURNS int LANGUAGE sql AS 'SELECT 1';
ALTER FUNCTION acr_f() OWNER TO acr_o;
REVOKE EXECUTE ON FUNCTION acr_f() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION acr_f() TO acr_a`)
	defer db.Close()
	rs, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	want := "[[{acr_o=arwdDxt/acr_o,acr_a=rw/acr_o,=r/acr_o} {acr_o=UC/acr_o,acr_a=U/acr_o} {acr_o=X/acr_o,acr_a=X/acr_o} 10]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("ACL columns after reopening:\n got %s\nwant %s", g, want)
	}
}
