package pgwire_test

import "testing"

// TestJDBCTypeInfo runs testdata/drivers/JdbcTypeInfo.java: the want is
// what it prints against PostgreSQL 15, DatabaseMetaData.getTypeInfo()'s
// rows for built-in types of each kind and a user's enum, composite type
// and domain (with their array types), in the driver's order.
func TestJDBCTypeInfo(t *testing.T) {
	got := runJDBC(t, "JdbcTypeInfo.java")
	want := `type bool -7 0 ' ' null 1 f 3 t f f null 0 0 null null 10
type int8 -5 0 null null null 1 f 3 f f f null 0 0 null null 10
type oid -5 0 null null null 1 f 3 t f f null 0 0 null null 10
type bytea -2 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type bpchar 1 10485760 ' ' null 1 t 3 t f f null 0 0 null null 10
type numeric 2 1000 null null null 1 f 3 f f f null 0 1000 null null 10
type int4 4 0 null null null 1 f 3 f f f null 0 0 null null 10
type int2 5 0 null null null 1 f 3 f f f null 0 0 null null 10
type float8 8 0 null null null 1 f 3 f f f null 0 0 null null 10
type name 12 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type text 12 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type varchar 12 10485760 ' ' null 1 t 3 t f f null 0 0 null null 10
type jti_mood 12 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type date 91 0 ' ' null 1 f 3 t f f null 0 0 null null 10
type timestamptz 93 6 ' ' null 1 f 3 t f f null 0 0 null null 10
type json 1111 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type inet 1111 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type interval 1111 6 ' ' null 1 f 3 t f f null 0 0 null null 10
type uuid 1111 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type tsvector 1111 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type jsonb 1111 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type int4range 1111 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type jti_pos 2001 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type jti_pair 2002 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type _int4 2003 0 ' ' null 1 f 3 f f f null 0 0 null null 10
type _text 2003 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type _jti_mood 2003 0 ' ' null 1 t 3 t f f null 0 0 null null 10
type _jti_pair 2003 0 ' ' null 1 t 3 t f f null 0 0 null null 10
`
	if got != want {
		t.Errorf("JDBC client printed\n%s\nwant (PostgreSQL's)\n%s", got, want)
	}
}
