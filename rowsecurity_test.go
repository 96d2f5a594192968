package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestRowSecurityReopen checks that row-level security survives closing
// and opening the file again: the policies as last altered (a renamed one
// under its new name, to the roles it names), a dropped one gone, a
// table's row security still enabled and forced, and a dropped table's
// policies gone with it, and a role's BYPASSRLS as last set.
func TestRowSecurityReopen(t *testing.T) {
	db := reopenedFileDB(t, "rls.db", `CREATE ROLE alice;
CREATE ROLE bob;
CREATE ROLE carol BYPASSRLS;
CREATE ROLE dave BYPASSRLS;
ALTER ROLE dave NOBYPASSRLS;
CREATE TABLE docs (id int PRIMARY KEY, owner text, n int);
CREATE TABLE gone (a int);
INSERT INTO docs VALUES (1, 'alice', 1), (2, 'bob', 2), (3, 'alice', 30);
GRANT SELECT, INSERT ON docs TO alice, bob, carol, dave;
CREATE POLICY own ON docs TO alice, bob USING (owner = current_user) WITH CHECK (owner = current_user);
CREATE POLICY small ON docs AS RESTRICTIVE USING (n < 10);
CREATE POLICY dropped ON docs USING (true);
CREATE POLICY g ON gone TO bob USING (a > 0);
ALTER TABLE gone ENABLE ROW LEVEL SECURITY;
ALTER POLICY small ON docs RENAME TO tiny;
ALTER POLICY tiny ON docs USING (n < 20);
DROP POLICY dropped ON docs;
DROP TABLE gone;
ALTER TABLE docs ENABLE ROW LEVEL SECURITY;
ALTER TABLE docs FORCE ROW LEVEL SECURITY`)
	defer db.Close()
	for q, want := range map[string]string{
		"SELECT policyname, permissive, roles, cmd, qual, with_check FROM pg_policies ORDER BY 1":  "[[own PERMISSIVE {alice,bob} ALL (owner = current_user) (owner = current_user)] [tiny RESTRICTIVE {public} ALL (n < 20) NULL]]",
		"SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class WHERE relname = 'docs'": "[[docs t t]]",
		"SELECT count(*) FROM docs": "[[3]]",
	} {
		rs, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rs.Rows); got != want {
			t.Errorf("after reopening: %s: got %s, want %s", q, got, want)
		}
	}
	for who, want := range map[string]string{"carol": "[[3]]", "dave": "[[0]]"} {
		s, err := db.SessionAs(who)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := s.Query("SELECT count(*) FROM docs")
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rs.Rows); got != want {
			t.Errorf("%s (BYPASSRLS kept as last set) reads %s, want %s", who, got, want)
		}
		s.Close()
	}
	alice, err := db.SessionAs("alice")
	if err != nil {
		t.Fatal(err)
	}
	defer alice.Close()
	rs, err := alice.Query("SELECT id FROM docs ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rs.Rows); got != "[[1]]" {
		t.Errorf("alice reads %s, want [[1]]", got)
	}
	err = alice.Exec("INSERT INTO docs VALUES (4, 'bob', 1)")
	if pgerr.Code(err) != pgerr.InsufficientPrivilege {
		t.Errorf("alice inserting bob's row: got %v, want 42501", err)
	}
	// A typed change has no statement for the policies to check.
	tx, err := alice.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("docs", deltaview.Int(5), deltaview.Text("alice"), deltaview.Int(1)); pgerr.Code(err) != pgerr.FeatureNotSupported {
		t.Errorf("alice's typed insert: got %v, want 0A000", err)
	}
	tx.Rollback()
	// A prepared statement binds again for the role that runs it.
	st, err := db.Prepare("SELECT id FROM docs ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	admin := db.Session()
	defer admin.Close()
	for _, c := range []struct{ set, want string }{{"", "[[1] [2] [3]]"}, {"SET ROLE alice", "[[1]]"}, {"RESET ROLE", "[[1] [2] [3]]"}, {"SET ROLE bob", "[[2]]"}, {"SET ROLE alice", "[[1]]"}} {
		if c.set != "" {
			if err := admin.Exec(c.set); err != nil {
				t.Fatal(err)
			}
		}
		rs, err := admin.QueryStmt(st)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rs.Rows); got != c.want {
			t.Errorf("prepared, after %q: got %s, want %s", c.set, got, c.want)
		}
	}
	if err := db.Exec("DROP ROLE bob"); pgerr.Code(err) != pgerr.DependentObjects {
		t.Errorf("dropping a role a policy names: got %v, want 2BP01", err)
	}
}
