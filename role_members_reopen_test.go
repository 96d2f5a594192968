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
CREATE ROLE granter;
CREATE ROLE other;
GRANT staff TO granter WITH ADMIN OPTION;
GRANT staff TO other GRANTED BY granter;
CREATE TABLE pay (x int);
GRANT SELECT ON pay TO staff;
GRANT staff TO boss WITH ADMIN OPTION;
GRANT staff TO temp;
GRANT gone TO temp;
REVOKE staff FROM temp;
DROP ROLE gone;
DROP ROLE granter;
BEGIN;
GRANT boss TO temp;
ROLLBACK`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT roleid::regrole::text, member::regrole::text, grantor::regrole::text, admin_option FROM pg_auth_members ORDER BY 1, 2",
			"[[staff boss deltaview t] [staff other deltaview f]]"},
		{"SELECT has_table_privilege('boss', 'pay', 'SELECT'), has_table_privilege('temp', 'pay', 'SELECT')", "[[t f]]"},
	})
	if err := db.Exec(`GRANT staff TO boss`); err != nil {
		t.Fatal(err)
	}
}

// TestTypeOwnersReopen checks that a database file keeps the owners ALTER
// TYPE | DOMAIN … OWNER TO gave types, through a rename, and forgets the
// owner of a type dropped.
func TestTypeOwnersReopen(t *testing.T) {
	db := reopenedFileDB(t, "typeowners.db", `CREATE ROLE tor;
CREATE TYPE mood AS ENUM ('ok');
CREATE DOMAIN pos AS int CHECK (VALUE > 0);
CREATE TYPE gone AS (x int);
ALTER TYPE mood OWNER TO tor;
ALTER DOMAIN pos OWNER TO tor;
ALTER TYPE gone OWNER TO tor;
ALTER TYPE mood RENAME TO mood2;
DROP TYPE gone;
CREATE TYPE gone AS (y int)`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT typname::text, typowner::regrole::text FROM pg_type WHERE typname IN ('mood2', 'pos', 'gone') ORDER BY 1",
			"[[gone deltaview] [mood2 tor] [pos tor]]"},
	})
	if err := db.Exec(`DROP ROLE tor`); err == nil {
		t.Error("DROP ROLE of a role that owns types succeeded after reopening")
	}
}

// TestNoInheritReopen checks that a database file keeps a role's
// NOINHERIT, forgets it after ALTER ROLE … INHERIT, and that a NOINHERIT
// member holds its role's privileges only after SET ROLE when reopened.
func TestNoInheritReopen(t *testing.T) {
	db := reopenedFileDB(t, "noinherit.db", `CREATE ROLE staff;
CREATE ROLE lone NOINHERIT;
CREATE ROLE back NOINHERIT;
ALTER ROLE back INHERIT;
GRANT staff TO lone;
GRANT staff TO back;
CREATE TABLE pay (x int);
GRANT SELECT ON pay TO staff`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT rolname::text, rolinherit FROM pg_roles WHERE rolname IN ('staff', 'lone', 'back') ORDER BY 1",
			"[[back t] [lone f] [staff t]]"},
		{"SELECT has_table_privilege('lone', 'pay', 'SELECT'), has_table_privilege('back', 'pay', 'SELECT'), pg_has_role('lone', 'staff', 'MEMBER')", "[[f t t]]"},
	})
}

// TestTypeOwnersMovedReopen checks that a database file keeps the owners
// of types moved by SET SCHEMA, renamed with their schema, and of a
// schema's type, and that a table's row type is owned by the table's owner.
func TestTypeOwnersMovedReopen(t *testing.T) {
	db := reopenedFileDB(t, "typeowners_moved.db", `CREATE ROLE tor;
CREATE SCHEMA s;
CREATE SCHEMA u;
CREATE TYPE mood AS ENUM ('ok');
CREATE DOMAIN pos AS int CHECK (VALUE > 0);
CREATE TYPE u.inner AS ENUM ('x');
CREATE TABLE t (x int);
ALTER TYPE mood OWNER TO tor;
ALTER DOMAIN pos OWNER TO tor;
ALTER TYPE u.inner OWNER TO tor;
ALTER TABLE t OWNER TO tor;
ALTER TYPE mood SET SCHEMA s;
ALTER DOMAIN pos SET SCHEMA s;
ALTER SCHEMA u RENAME TO v`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT typnamespace::regnamespace::text, typname::text, typowner::regrole::text FROM pg_type WHERE typname IN ('mood', 'pos', 'inner', 't') ORDER BY 1, 2",
			"[[public t tor] [s mood tor] [s pos tor] [v inner tor]]"},
	})
}
