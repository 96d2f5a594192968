package deltaview_test

import (
	"fmt"
	"testing"
)

// TestInfoSchema3Reopen checks that the columns views read
// (information_schema.view_column_usage, pg_depend) are there again once
// the file is opened again, after a column they read was renamed, and
// the columns a function's SQL-standard body reads.
func TestInfoSchema3Reopen(t *testing.T) {
	db := reopenedFileDB(t, "infoschema3.db", `CREATE TABLE t (a int PRIMARY KEY, b text, c int);
CREATE TABLE u (a int, e int);
CREATE VIEW v AS SELECT t.b FROM t JOIN u USING (a) WHERE c > 0;
CREATE MATERIALIZED VIEW m AS SELECT count(*) FROM u;
CREATE FUNCTION rf(x int) RETURNS text LANGUAGE sql RETURN (SELECT b FROM t WHERE t.a = x);
ALTER TABLE t RENAME COLUMN c TO cc;`)
	defer db.Close()
	for q, want := range map[string]string{
		`SELECT string_agg(table_name || '.' || column_name, ',' ORDER BY table_name, column_name)
		   FROM information_schema.view_column_usage WHERE view_name = 'v'`: "[[t.a,t.b,t.cc,u.a]]",
		`SELECT string_agg(refobjid::regclass || ':' || refobjsubid || deptype::text, ',' ORDER BY refobjid::regclass::text, refobjsubid, deptype)
		   FROM pg_depend d JOIN pg_rewrite r ON d.objid = r.oid WHERE r.ev_class = 'm'::regclass`: "[[m:0i,m:0n,u:0n]]",
		`SELECT string_agg(table_name || '.' || column_name, ',' ORDER BY table_name, column_name)
		   FROM information_schema.routine_column_usage WHERE routine_name = 'rf'`: "[[t.a,t.b]]",
	} {
		rs, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got := fmt.Sprint(rs.Rows); got != want {
			t.Errorf("%s = %s, want %s", q, got, want)
		}
	}
}
