package deltaview_test

import (
	"fmt"
	"testing"
)

// TestOwners11Reopen checks that what roles that are not superusers
// created keeps its owners in a reopened database file, that the views
// over their tables are maintained there, and that public's ACL keeps
// the CREATE a GRANT gave.
func TestOwners11Reopen(t *testing.T) {
	db := reopenedFileDB(t, "owners11.db", `CREATE ROLE a;
CREATE ROLE b;
CREATE SCHEMA s;
GRANT USAGE, CREATE ON SCHEMA s TO a;
GRANT CREATE ON SCHEMA public TO b;
SET ROLE a;
CREATE TABLE s.t (k serial PRIMARY KEY, v int);
INSERT INTO s.t (v) VALUES (1), (2);
CREATE MATERIALIZED VIEW s.mv AS SELECT sum(v) AS total FROM s.t;
CREATE FUNCTION s.f() RETURNS int LANGUAGE sql AS 'SELECT 1';
CREATE TYPE s.e AS ENUM ('x');
RESET ROLE;
SET ROLE b;
CREATE TABLE pt (x int);
CREATE VIEW pv AS SELECT x FROM pt;
RESET ROLE`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT relname, pg_get_userbyid(relowner) FROM pg_class WHERE relname IN ('t', 't_k_seq', 'mv', 'pt', 'pv') ORDER BY 1", "[[mv a] [pt b] [pv b] [t a] [t_k_seq a]]"},
		{"SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE proname = 'f'", "[[a]]"},
		{"SELECT pg_get_userbyid(typowner) FROM pg_type WHERE typname = 'e'", "[[a]]"},
		{"SELECT nspacl::text FROM pg_namespace WHERE nspname = 'public'", "[[{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner,b=C/pg_database_owner}]]"},
	})
	if err := db.Exec("DROP ROLE a"); err == nil {
		t.Error("DROP ROLE a, an owner, succeeded after reopening")
	}
	if err := db.Exec("INSERT INTO s.t (v) VALUES (10)"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT total FROM s.mv")
	if err != nil {
		t.Fatal(err)
	}
	if g := fmt.Sprint(rs.Rows); g != "[[13]]" {
		t.Errorf("s.mv after an insert: %s", g)
	}
}
