package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestIndexExtReopen checks that indexes on expressions, partial and
// NULLS NOT DISTINCT indexes are built again, enforced and shown as
// before, and that constraints added NOT VALID stay so and DEFERRABLE
// foreign keys wait for the commit, after the file is opened again.
func TestIndexExtReopen(t *testing.T) {
	db := reopenedFileDB(t, "indexext.db", `CREATE TABLE u (id int PRIMARY KEY, email text, a int, n int);
CREATE UNIQUE INDEX u_lower ON u (lower(email));
CREATE UNIQUE INDEX u_part ON u (n) WHERE a > 0;
CREATE UNIQUE INDEX u_nnd ON u (a) NULLS NOT DISTINCT;
CREATE INDEX u_inc ON u (n) INCLUDE (email);
INSERT INTO u VALUES (1, 'X@y', 1, 7), (2, 'z', -1, 7), (3, 'w', NULL, 8);
CREATE TABLE c (id int PRIMARY KEY, uid int);
INSERT INTO c VALUES (1, 99), (2, -5);
ALTER TABLE c ADD CONSTRAINT c_fk FOREIGN KEY (uid) REFERENCES u (id) NOT VALID;
ALTER TABLE c ADD CONSTRAINT c_pos CHECK (uid > 0) NOT VALID;
CREATE TABLE dc (id int PRIMARY KEY, uid int REFERENCES u DEFERRABLE INITIALLY DEFERRED)`)
	defer db.Close()
	for _, c := range []struct{ stmt, code string }{
		{"INSERT INTO u VALUES (4, 'x@Y', 5, 9)", pgerr.UniqueViolation},
		{"INSERT INTO u VALUES (4, 'k', 5, 7)", pgerr.UniqueViolation},
		{"INSERT INTO u VALUES (4, 'k', NULL, 9)", pgerr.UniqueViolation},
		{"INSERT INTO u VALUES (4, 'k', -2, 7)", ""},
		{"INSERT INTO c VALUES (3, 98)", pgerr.ForeignKeyViolation},
		{"INSERT INTO c VALUES (3, -1)", pgerr.CheckViolation},
		{"ALTER TABLE c VALIDATE CONSTRAINT c_fk", pgerr.ForeignKeyViolation},
		{"ALTER TABLE c VALIDATE CONSTRAINT c_pos", pgerr.CheckViolation},
		{"DELETE FROM c WHERE id IN (1, 2)", ""},
		{"ALTER TABLE c VALIDATE CONSTRAINT c_fk", ""},
		{"BEGIN; INSERT INTO dc VALUES (1, 50); INSERT INTO u VALUES (50, 'fifty', 50, NULL); COMMIT", ""},
		{"BEGIN; INSERT INTO dc VALUES (2, 51); COMMIT", pgerr.ForeignKeyViolation},
	} {
		err := db.Exec(c.stmt)
		if got := pgerr.Code(err); err != nil && got != c.code || err == nil && c.code != "" {
			t.Errorf("%s after reopening: got %v, want %s", c.stmt, err, c.code)
		}
	}
	q := "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'u' AND indexname <> 'u_pkey' ORDER BY 1"
	rs, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	want := "[[u_inc CREATE INDEX u_inc ON public.u USING btree (n) INCLUDE (email)] " +
		"[u_lower CREATE UNIQUE INDEX u_lower ON public.u USING btree (lower(email))] " +
		"[u_nnd CREATE UNIQUE INDEX u_nnd ON public.u USING btree (a) NULLS NOT DISTINCT] " +
		"[u_part CREATE UNIQUE INDEX u_part ON public.u USING btree (n) WHERE (a > 0)]]"
	if g := fmt.Sprint(rs.Rows); g != want {
		t.Errorf("%s after reopening: got %s, want %s", q, g, want)
	}
}
