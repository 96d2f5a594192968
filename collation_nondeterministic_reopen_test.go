package deltaview_test

import (
	"fmt"
	"testing"
)

// TestCollationOIDAndNondeterministicReopen checks that a renamed
// collation keeps its oid when the file is opened again (the oid is not
// the new name's hash), and that a nondeterministic collation comes back
// nondeterministic: its column's key still holds strings equal under it
// as one.
func TestCollationOIDAndNondeterministicReopen(t *testing.T) {
	db, path := openFileDB(t, "collnondet.db")
	if err := db.Exec(`CREATE COLLATION c12_tmp (provider = icu, locale = 'sv');
ALTER COLLATION c12_tmp RENAME TO c12_sv;
CREATE COLLATION c12_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE c12_k (s text COLLATE c12_ci PRIMARY KEY, n int);
INSERT INTO c12_k VALUES ('abc', 1), ('B', 2)`); err != nil {
		t.Fatal(err)
	}
	const oids = "SELECT collname, oid::int8 FROM pg_collation WHERE collname LIKE 'c12%' ORDER BY 1"
	rs, err := db.Query(oids)
	if err != nil {
		t.Fatal(err)
	}
	before := fmt.Sprint(rs.Rows)
	db = reopenFileDB(t, db, path)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{oids, before},
		{"SELECT collname, collisdeterministic FROM pg_collation WHERE collname LIKE 'c12%' ORDER BY 1", "[[c12_ci f] [c12_sv t]]"},
		{"SELECT n FROM c12_k WHERE s = 'ABC'", "[[1]]"},
		{"SELECT count(DISTINCT s) FROM (SELECT s FROM c12_k UNION ALL SELECT 'b') x", "[[2]]"},
	})
	if err := db.Exec("INSERT INTO c12_k VALUES ('b', 3)"); err == nil {
		t.Error("a key equal under the nondeterministic collation was inserted after reopening")
	}
	if err := db.Exec("CREATE COLLATION c12_x (provider = icu, locale = 'sv', oid = 5)"); err == nil {
		t.Error("CREATE COLLATION accepted the oid attribute outside a database file")
	}
}
