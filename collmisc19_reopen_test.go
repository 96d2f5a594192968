package deltaview_test

import "testing"

// TestCollMisc19InvokerViewReopen: a security_invoker view naming a
// renamed collation comes back from the file under its new name, still
// reading as the statement's role.
func TestCollMisc19InvokerViewReopen(t *testing.T) {
	db := reopenedFileDB(t, "collmisc19.db", `CREATE COLLATION ri_coll (provider = icu, locale = 'en');
CREATE TABLE ri_t (a text);
INSERT INTO ri_t VALUES ('b'), ('A'), ('a');
CREATE VIEW ri_v WITH (security_invoker = true) AS SELECT a COLLATE ri_coll AS a FROM ri_t;
CREATE ROLE ri_r;
GRANT SELECT ON ri_v TO ri_r;
ALTER COLLATION ri_coll RENAME TO ri_coll2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT string_agg(a, ',' ORDER BY a) FROM ri_v", "[[a,A,b]]"},
		{"SELECT collation for (a) FROM ri_v LIMIT 1", "[[ri_coll2]]"},
	})
	if err := db.Exec("SET ROLE ri_r; SELECT a FROM ri_v"); err == nil {
		t.Fatal("the view reads as its owner after reopening: want 42501 for ri_r")
	}
}

// TestCollMisc19MatviewUniqueReopen: a materialized view's unique index
// naming a nondeterministic collation keeps its equal strings one key
// after reopening.
func TestCollMisc19MatviewUniqueReopen(t *testing.T) {
	db := reopenedFileDB(t, "collmisc19mv.db", `CREATE COLLATION mu_nd (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE mu_t (id int PRIMARY KEY, a text);
INSERT INTO mu_t VALUES (1, 'x'), (2, 'y');
CREATE MATERIALIZED VIEW mu_v AS SELECT id, a FROM mu_t;
CREATE UNIQUE INDEX mu_vi ON mu_v (a COLLATE mu_nd)`)
	defer db.Close()
	if err := db.Exec("INSERT INTO mu_t VALUES (3, 'Y')"); err == nil {
		t.Fatal("'Y' beside 'y' under the reopened index: want 23505")
	}
	if err := db.Exec("INSERT INTO mu_t VALUES (3, 'z')"); err != nil {
		t.Fatal(err)
	}
}
