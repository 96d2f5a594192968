package deltaview_test

import (
	"fmt"
	"testing"
)

// TestCollationFollowReopen checks that a domain keeps the collation it
// uses under the name and schema ALTER COLLATION gave it when the file is
// opened again, and its columns still order under it.
func TestCollationFollowReopen(t *testing.T) {
	db := reopenedFileDB(t, "collfollow.db", `CREATE SCHEMA acf_s;
CREATE COLLATION acf_sv (provider = icu, locale = 'sv');
CREATE COLLATION acf_c (locale = 'C');
CREATE DOMAIN acf_d AS text COLLATE acf_sv;
CREATE DOMAIN acf_l AS text COLLATE acf_c;
CREATE TABLE acf_t (d acf_d, l acf_l);
INSERT INTO acf_t VALUES ('z', 'z'), ('ä', 'ä'), ('a', 'a');
ALTER COLLATION acf_sv RENAME TO acf_sv2;
ALTER COLLATION acf_sv2 SET SCHEMA acf_s;
ALTER COLLATION acf_c RENAME TO acf_c2`)
	defer db.Close()
	for _, c := range []struct{ q, want string }{
		{"SELECT typname::text, collname::text, collnamespace::regnamespace::text FROM pg_type t JOIN pg_collation c ON c.oid = t.typcollation WHERE typname LIKE 'acf%' ORDER BY 1",
			"[[acf_d acf_sv2 acf_s] [acf_l acf_c2 public]]"},
		// Swedish sorts ä after z.
		{"SELECT d FROM acf_t ORDER BY d", "[[a] [z] [ä]]"},
	} {
		rs, err := db.Query(c.q)
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(rs.Rows); g != c.want {
			t.Errorf("%s after reopening: got %s, want %s", c.q, g, c.want)
		}
	}
}
