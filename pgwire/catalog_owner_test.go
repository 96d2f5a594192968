package pgwire_test

import "testing"

// TestPsqlDescribeOwners compares psql's lists of relations (\dt, \dv,
// \dm, \ds), whose Owner column reads pg_class.relowner, through
// deltaview and PostgreSQL after ALTER … OWNER TO.
func TestPsqlDescribeOwners(t *testing.T) {
	// Once a role exists the server asks the superuser for its password.
	t.Setenv("PGPASSWORD", "owner-test")
	script := `CREATE ROLE psql_owner_a;
CREATE TABLE ot (id serial PRIMARY KEY, v int);
CREATE VIEW ov AS SELECT * FROM ot;
CREATE MATERIALIZED VIEW om AS SELECT count(*) AS n FROM ot;
CREATE SEQUENCE oq;
ALTER TABLE ot OWNER TO psql_owner_a;
ALTER VIEW ov OWNER TO psql_owner_a;
ALTER MATERIALIZED VIEW om OWNER TO psql_owner_a;
ALTER SEQUENCE oq OWNER TO psql_owner_a;
`
	// The role deltaview is the cluster's: another test may have made it.
	comparePsqlAs(t, "CREATE ROLE deltaview SUPERUSER LOGIN PASSWORD 'owner-test';\n"+script,
		"DO $$ BEGIN CREATE ROLE deltaview SUPERUSER LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;\n"+script,
		[]string{`\dt ot`, `\dv ov`, `\dm om`, `\ds o*`, `\di ot_pkey`})
}
