package deltaview_test

import "testing"

// TestGrantor13SchemaGrantorReopen: a schema's items granted by a role
// holding a grant option, several grantors of one privilege and an owner
// change merging items come back from the file as they were.
func TestGrantor13SchemaGrantorReopen(t *testing.T) {
	db := reopenedFileDB(t, "grantor13.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE ROLE c;
CREATE ROLE o;
CREATE SCHEMA s AUTHORIZATION o;
GRANT USAGE, CREATE ON SCHEMA s TO a WITH GRANT OPTION;
GRANT USAGE ON SCHEMA s TO c;
SET ROLE a;
GRANT USAGE ON SCHEMA s TO b WITH GRANT OPTION;
GRANT CREATE ON SCHEMA s TO c;
RESET ROLE;
SET ROLE b;
GRANT USAGE ON SCHEMA s TO c;
RESET ROLE;
CREATE SCHEMA s2 AUTHORIZATION o;
GRANT USAGE ON SCHEMA s2 TO b WITH GRANT OPTION;
SET ROLE b;
GRANT USAGE ON SCHEMA s2 TO c;
RESET ROLE;
ALTER SCHEMA s2 OWNER TO b`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT nspname, nspacl::text FROM pg_namespace WHERE nspname IN ('s', 's2') ORDER BY 1", "[[s {o=UC/o,a=U*C*/o,c=U/o,b=U*/a,c=C/a,c=U/b}] [s2 {b=U*C/b,c=U/b}]]"},
		{"SELECT has_schema_privilege('b', 's', 'USAGE WITH GRANT OPTION'), has_schema_privilege('c', 's', 'CREATE')", "[[t t]]"},
	})
	if err := db.Exec("REVOKE USAGE ON SCHEMA s FROM a"); err == nil {
		t.Fatal("REVOKE of an option others granted through: want 2BP01")
	}
	if err := db.Exec("REVOKE USAGE ON SCHEMA s FROM a CASCADE"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT nspacl::text FROM pg_namespace WHERE nspname = 's'", "[[{o=UC/o,a=C*/o,c=U/o,c=C/a}]]"},
	})
}

// TestGrantor13DatabaseGrantorReopen: the database's items granted by a
// role holding a grant option come back from the file with their
// grantors, in their order, and a REVOKE of the option still takes what
// was granted through it.
func TestGrantor13DatabaseGrantorReopen(t *testing.T) {
	db := reopenedFileDB(t, "grantor13db.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE ROLE c;
GRANT CONNECT, CREATE ON DATABASE deltaview TO a WITH GRANT OPTION;
SET ROLE a;
GRANT CONNECT ON DATABASE deltaview TO b WITH GRANT OPTION;
GRANT CREATE ON DATABASE deltaview TO c;
RESET ROLE;
SET ROLE b;
GRANT CONNECT ON DATABASE deltaview TO c;
RESET ROLE;
GRANT TEMP ON DATABASE deltaview TO c`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT datacl::text FROM pg_database WHERE datname = 'deltaview'", "[[{=Tc/deltaview,deltaview=CTc/deltaview,a=C*c*/deltaview,b=c*/a,c=C/a,c=c/b,c=T/deltaview}]]"},
		{"SELECT has_database_privilege('b', 'deltaview', 'CONNECT WITH GRANT OPTION'), has_database_privilege('c', 'deltaview', 'CONNECT')", "[[t t]]"},
	})
	if err := db.Exec("REVOKE CONNECT ON DATABASE deltaview FROM a CASCADE"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT datacl::text FROM pg_database WHERE datname = 'deltaview'", "[[{=Tc/deltaview,deltaview=CTc/deltaview,a=C*/deltaview,c=C/a,c=T/deltaview}]]"},
	})
}
