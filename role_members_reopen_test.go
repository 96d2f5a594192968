package deltaview_test

import "testing"

// TestRoleMembersReopen checks that a database file keeps the memberships
// GRANT role TO role made, their ADMIN OPTION and grantor, forgets those
// revoked, rolled back or of a role dropped, and that a member still
// holds its role's privileges after reopening.
func TestRoleMembersReopen(t *testing.T) {
	db := reopenedFileDB(t, "members.db", `CREATE ROLE boss;
CREATE ROLE staff;
CREATE ROLE temp;
CREATE ROLE gone;
CREATE TABLE pay (x int);
GRANT SELECT ON pay TO staff;
GRANT staff TO boss WITH ADMIN OPTION;
GRANT staff TO temp;
GRANT gone TO temp;
REVOKE staff FROM temp;
DROP ROLE gone;
BEGIN;
GRANT boss TO temp;
ROLLBACK`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT roleid::regrole::text, member::regrole::text, grantor::regrole::text, admin_option FROM pg_auth_members ORDER BY 1, 2",
			"[[staff boss deltaview t]]"},
		{"SELECT has_table_privilege('boss', 'pay', 'SELECT'), has_table_privilege('temp', 'pay', 'SELECT')", "[[t f]]"},
	})
	if err := db.Exec(`GRANT staff TO boss`); err != nil {
		t.Fatal(err)
	}
}
