package deltaview_test

import (
	"fmt"
	"testing"
)

// TestSequenceGrantsReopen checks that the privileges GRANT gave on
// sequences, and the order of every relation's grantees, are what they
// were after the file is opened again: relacl lists the grantees in the
// order of their first grant, a relation whose every grant was revoked
// (also by DROP OWNED) keeps its owner's item, and a role granted USAGE
// still draws from the sequence.
func TestSequenceGrantsReopen(t *testing.T) {
	const query = `SELECT relname, relacl::text FROM pg_class WHERE relname LIKE 'r3r%' ORDER BY 1`
	db := reopenedFileDB(t, "seqgrants.db", `CREATE ROLE r3r_o;
CREATE ROLE r3r_b LOGIN;
CREATE ROLE r3r_a;
CREATE ROLE r3r_gone;
CREATE SEQUENCE r3r_q;
ALTER SEQUENCE r3r_q OWNER TO r3r_o;
CREATE TABLE r3r_t (x int);
CREATE TABLE r3r_u (x int);
CREATE TABLE r3r_v (x int);
GRANT USAGE ON SEQUENCE r3r_q TO r3r_b;
GRANT SELECT ON SEQUENCE r3r_q TO r3r_a;
GRANT UPDATE ON r3r_q TO r3r_b;
GRANT SELECT ON r3r_t TO r3r_b;
GRANT SELECT ON r3r_t TO PUBLIC;
GRANT INSERT ON r3r_t TO r3r_a;
GRANT UPDATE ON r3r_t TO r3r_b;
GRANT SELECT ON r3r_u TO r3r_a;
REVOKE ALL ON r3r_u FROM r3r_a;
GRANT SELECT ON r3r_v TO r3r_gone;
DROP OWNED BY r3r_gone;
DROP ROLE r3r_gone`)
	defer db.Close()
	rs, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	want := "[[r3r_q {r3r_o=rwU/r3r_o,r3r_b=wU/r3r_o,r3r_a=r/r3r_o}] [r3r_t {deltaview=arwdDxt/deltaview,r3r_b=rw/deltaview,=r/deltaview,r3r_a=a/deltaview}] " +
		"[r3r_u {deltaview=arwdDxt/deltaview}] [r3r_v {deltaview=arwdDxt/deltaview}]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("relacl after reopening:\n got %s\nwant %s", g, want)
	}
	s, err := db.SessionAs("r3r_b")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := firstValue(s, "SELECT nextval('r3r_q')"); err != nil || v != "1" {
		t.Errorf("nextval as r3r_b after reopening: %s, %v", v, err)
	}
	a, err := db.SessionAs("r3r_a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := firstValue(a, "SELECT nextval('r3r_q')"); err == nil {
		t.Errorf("nextval as r3r_a, who holds SELECT alone, after reopening: no error")
	}
}
