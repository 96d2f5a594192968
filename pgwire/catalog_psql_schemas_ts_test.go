package pgwire_test

import "testing"

// TestPsqlDescribeSchemasTextSearch compares, through deltaview and
// PostgreSQL, psql's list of schemas with their privileges and
// descriptions (\dn+), the text search objects deltaview has with
// PostgreSQL's descriptions of them (\dF, \dFd, \dFp, \dFt), the casts
// of name, xid8, the bit, time, numeric and character types with their
// functions (\dC; those applying a length too), the persistence and
// access method of tables (\dt+, of empty ones, whose size is the same)
// and the objects of the plpgsql extension (\dx+). The tables are made
// by a role named deltaview, so that their owners print alike.
func TestPsqlDescribeSchemasTextSearch(t *testing.T) {
	// Once a role exists the server asks the superuser for its password.
	t.Setenv("PGPASSWORD", "psql-schemas-ts")
	script := `CREATE TABLE c13_p (a int);
CREATE UNLOGGED TABLE c13_u (a int);
`
	cmds := []string{`\dn+`, `\dF english`, `\dF simple`, `\dFd english_stem`, `\dFd simple`, `\dFp`, `\dFt simple`,
		`\dFt snowball`, `\dC name`, `\dC xid8`, `\dC bit*`, `\dC time*`, `\dC numeric`, `\dC char*`, `\dt+ c13_*`, `\dx+`}
	// The role deltaview is the cluster's: another test may have made it.
	comparePsqlAs(t, "CREATE ROLE deltaview SUPERUSER LOGIN PASSWORD 'psql-schemas-ts';\nSET ROLE deltaview;\n"+script,
		"DO $$ BEGIN CREATE ROLE deltaview SUPERUSER LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;\nSET ROLE deltaview;\n"+script, cmds)
}
