package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestRenamedWhileRunningReopen checks that a file keeps what a statement
// wrote to a table that a function it called renamed (a trigger's RENAME
// TO and SET SCHEMA, a PL/pgSQL loop's RENAME COLUMN, a query's RENAME TO
// under a materialized view): after the file is opened again the rows
// are in the table under its new names, the old names are gone, and the
// materialized view is maintained over the renamed table.
func TestRenamedWhileRunningReopen(t *testing.T) {
	db := reopenedFileDB(t, "tblident.db", `CREATE FUNCTION ex(text) RETURNS int LANGUAGE plpgsql AS $$ BEGIN EXECUTE $1; RETURN 1; END $$;
CREATE SCHEMA s;
CREATE TABLE w (a int PRIMARY KEY, b text);
CREATE FUNCTION w_ren() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF new.a = 2 THEN ALTER TABLE w RENAME TO w2; END IF;
  IF new.a = 3 THEN ALTER TABLE w2 SET SCHEMA s; END IF;
  RETURN new;
END $$;
CREATE TRIGGER w_bi BEFORE INSERT ON w FOR EACH ROW EXECUTE FUNCTION w_ren();
INSERT INTO w VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT * FROM s.w2 ORDER BY a LOOP
    IF r.a = 1 THEN ALTER TABLE s.w2 RENAME COLUMN b TO bb; END IF;
    UPDATE s.w2 SET bb = bb || '!' WHERE a = r.a;
  END LOOP;
END $$;
CREATE TABLE m (k int PRIMARY KEY, v int);
INSERT INTO m VALUES (1, 10), (2, 20);
CREATE MATERIALIZED VIEW mm AS SELECT sum(v) AS s, count(*) AS n FROM m;
SELECT k, CASE WHEN k = 1 THEN ex('ALTER TABLE m RENAME TO m2') END FROM m;`)
	defer db.Close()
	for _, c := range []struct{ sql, code string }{
		{"SELECT * FROM w", pgerr.UndefinedTable},
		{"SELECT * FROM w2", pgerr.UndefinedTable},
		{"SELECT b FROM s.w2", pgerr.UndefinedColumn},
		{"SELECT * FROM m", pgerr.UndefinedTable},
		{"INSERT INTO m2 VALUES (3, 30)", ""},
	} {
		if err := db.Exec(c.sql); c.code == "" && err != nil || c.code != "" && pgerr.Code(err) != c.code {
			t.Errorf("%s after reopening: got %v, want %s", c.sql, err, c.code)
		}
	}
	wantRows(t, db, []queryRows{
		{"SELECT * FROM s.w2 ORDER BY a", "[[1 a!] [2 b!] [3 c!] [4 d!]]"},
		{"SELECT * FROM mm", "[[60 3]]"},
	})
}
