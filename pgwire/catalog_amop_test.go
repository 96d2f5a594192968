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

// TestPsqlOperatorFamilySupportFunctions compares psql's lists of the
// support functions of operator families (\dAp, from pg_amproc and
// pg_proc) whose functions pg_proc lists, and the operators of
// record_image_ops.
func TestPsqlOperatorFamilySupportFunctions(t *testing.T) {
	comparePsql(t, "", []string{`\dAp btree record_ops`, `\dAp+ btree record_image_ops`, `\dAp btree array_ops`,
		`\dAp hash array_ops`, `\dAp hash integer_ops`, `\dAp+ hash text_ops`, `\dAo btree record_image_ops`})
}

// TestPsqlSupportFunctionsOfRangesAndEqualImage compares psql's \dAp of
// families whose comparison, in_range and equal image functions pg_proc
// lists (range_cmp, multirange_cmp, enum_cmp, in_range, btequalimage).
func TestPsqlSupportFunctionsOfRangesAndEqualImage(t *testing.T) {
	comparePsql(t, "", []string{`\dAp btree range_ops`, `\dAp btree multirange_ops`, `\dAp btree enum_ops`,
		`\dAp+ btree interval_ops`, `\dAp btree time*`, `\dAp btree bool_ops`, `\dAp hash *range_ops`})
}
