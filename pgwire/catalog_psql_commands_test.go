package pgwire_test

import "testing"

// TestPsqlDescribeCommands compares, through deltaview and PostgreSQL,
// psql's describe commands that read the catalogs added for them: \df+
// (pg_language), \dp and \z (pg_class.relacl from GRANT), \dd (tableoid
// of the catalog tables, pg_opclass), \d of a table with a statistics
// object, and the commands over object kinds deltaview does not have,
// which list none: conversions, default privileges, foreign data, large
// objects, role settings, publications, subscriptions, collations. The
// objects are made by a role named deltaview, so that their owners print
// alike.
func TestPsqlDescribeCommands(t *testing.T) {
	// Once a role exists the server asks the superuser for its password.
	t.Setenv("PGPASSWORD", "psql-commands")
	script := `CREATE ROLE psql_cmd_a;
CREATE TABLE t (id int PRIMARY KEY, c int);
CREATE TABLE u (id int);
CREATE STATISTICS st (dependencies) ON id, c FROM t;
GRANT SELECT ON t TO psql_cmd_a;
GRANT SELECT, UPDATE ON u TO PUBLIC;
CREATE FUNCTION f(a int) RETURNS int LANGUAGE sql IMMUTABLE AS 'select a + 1';
CREATE FUNCTION fp() RETURNS trigger LANGUAGE plpgsql AS $$ begin return new; end $$;
COMMENT ON FUNCTION f(int) IS 'adds one';
`
	cmds := []string{`\df+ public.f*`, `\dp t`, `\z u`, `\dd`, `\d t`, `\dc`, `\ddp`, `\des`, `\det`, `\deu`, `\dew`, `\dl`, `\lo_list`,
		`\drds`, `\dRp`, `\dRs`, `\dO`}
	// The role deltaview is the cluster's: another test may have made it.
	comparePsqlAs(t, "CREATE ROLE deltaview SUPERUSER LOGIN PASSWORD 'psql-commands';\nSET ROLE deltaview;\n"+script,
		"DO $$ BEGIN CREATE ROLE deltaview SUPERUSER LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;\nSET ROLE deltaview;\n"+script, cmds)
}

// TestPsqlDescribeBuiltinDescriptions compares, through deltaview and
// PostgreSQL, psql's lists of built-in aggregates, operators and
// functions, whose Description columns are PostgreSQL's descriptions of
// them.
func TestPsqlDescribeBuiltinDescriptions(t *testing.T) {
	comparePsql(t, "", []string{`\daS sum`, `\daS count`, `\doS+ ||`, `\dfS lower`})
}
