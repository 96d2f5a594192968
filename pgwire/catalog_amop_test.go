package pgwire_test

import "testing"

// TestPsqlOperatorFamilyMembers compares, through deltaview and
// PostgreSQL, psql's lists of the operators of the built-in operator
// families (\dAo, from pg_amop), with and without patterns and verbose,
// for the access methods whose families use the engine's operators.
func TestPsqlOperatorFamilyMembers(t *testing.T) {
	comparePsql(t, "", []string{`\dAo btree integer_ops`, `\dAo+ btree float_ops`, `\dAo hash`, `\dAo gist`, `\dAo+ brin`,
		`\dAo gin`, `\dAo spgist`, `\dAo * text*`})
}
