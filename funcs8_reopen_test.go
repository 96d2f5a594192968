package deltaview_test

import (
	"testing"
)

// TestDomainTypDefaultReopen checks that pg_type.typdefault and
// information_schema.domains keep a domain default's text as it was set
// after a function it calls is renamed, also once the file is opened
// again, while the default calls the function by its new name; a later
// rename of the domain or ALTER DOMAIN … SET DEFAULT keeps it right.
func TestDomainTypDefaultReopen(t *testing.T) {
	db := reopenedFileDB(t, "funcs8_typdefault.db", `CREATE FUNCTION f8d() RETURNS int LANGUAGE sql AS 'SELECT 7';
CREATE DOMAIN dom AS int DEFAULT f8d();
CREATE DOMAIN dom2 AS int DEFAULT f8d();
CREATE DOMAIN dom3 AS int DEFAULT f8d() CHECK (VALUE > 0);
ALTER FUNCTION f8d() RENAME TO f8e;
ALTER DOMAIN dom2 SET DEFAULT f8e();
ALTER DOMAIN dom3 RENAME TO dom4;
CREATE TABLE t (id int, a dom, b dom2, c dom4)`)
	defer db.Close()
	if err := db.Exec("INSERT INTO t (id) VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT typname::text, typdefault FROM pg_type WHERE typname IN ('dom', 'dom2', 'dom4') ORDER BY 1", "[[dom f8d()] [dom2 f8e()] [dom4 f8d()]]"},
		{"SELECT domain_name::text, domain_default::text FROM information_schema.domains WHERE domain_name IN ('dom', 'dom4') ORDER BY 1", "[[dom f8d()] [dom4 f8d()]]"},
		{"SELECT * FROM t", "[[1 7 7 7]]"},
	})
}
