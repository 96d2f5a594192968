package deltaview_test

import (
	"fmt"
	"testing"
)

// TestUserCollationReopen checks that collations CREATE COLLATION made
// come back when the file is opened again, before the tables and views
// that use them, with their schema, owner, version and order.
func TestUserCollationReopen(t *testing.T) {
	db := reopenedFileDB(t, "usercoll.db", `CREATE ROLE t11_owner;
CREATE SCHEMA t11_s;
CREATE COLLATION t11_sv (provider = icu, locale = 'sv');
CREATE COLLATION t11_s.t11_en FROM "en-x-icu";
CREATE COLLATION t11_c (provider = libc, locale = 'C');
CREATE COLLATION t11_old (provider = icu, locale = 'de', version = '1');
ALTER COLLATION t11_c OWNER TO t11_owner;
CREATE COLLATION t11_gone (provider = icu, locale = 'fr');
CREATE COLLATION t11_tmp (provider = icu, locale = 'it');
ALTER COLLATION t11_tmp RENAME TO t11_it;
DROP COLLATION t11_gone;
CREATE TABLE w (id int PRIMARY KEY, s text COLLATE t11_sv);
INSERT INTO w VALUES (1, 'b'), (2, 'ä'), (3, 'z'), (4, 'a');
CREATE MATERIALIZED VIEW top2 AS SELECT s FROM w ORDER BY s DESC LIMIT 2;
CREATE VIEW en AS SELECT s COLLATE t11_s.t11_en AS s FROM w`)
	defer db.Close()
	if err := db.Exec("INSERT INTO w VALUES (5, 'ö')"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ q, want string }{
		{"SELECT collname, collnamespace::regnamespace::text, collowner::regrole::text, collprovider, coalesce(colliculocale, collcollate), collversion FROM pg_collation WHERE collname LIKE 't11%' ORDER BY 1",
			"[[t11_c public t11_owner c C NULL] [t11_en t11_s deltaview i en 153.120] [t11_it public deltaview i it 153.120] [t11_old public deltaview i de 1] [t11_sv public deltaview i sv 153.120.42]]"},
		// Swedish sorts ä and ö after z.
		{"SELECT s FROM top2", "[[ö] [ä]]"},
		{"SELECT s FROM en ORDER BY s", "[[a] [ä] [b] [ö] [z]]"},
		{"SELECT s FROM w ORDER BY s COLLATE t11_c", "[[a] [b] [z] [ä] [ö]]"},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening: got %s, want %s", c.q, g, c.want)
		}
	}
	if err := db.Exec("DROP ROLE t11_owner"); err == nil {
		t.Error("DROP ROLE of a collation's owner succeeded after reopening")
	}
}
