package deltaview_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestRenameIndexReopen checks that the indexes ALTER INDEX … RENAME TO
// renamed (of a table, of a materialized view, of a primary key) keep
// their new names from the file, and that a renamed UNIQUE index is
// enforced under its new name.
func TestRenameIndexReopen(t *testing.T) {
	db := reopenedFileDB(t, "renameindex.db", `CREATE TABLE t (id int PRIMARY KEY, a int, b text);
CREATE INDEX ti ON t (a);
CREATE UNIQUE INDEX tu ON t (lower(b));
INSERT INTO t VALUES (1, 1, 'x');
ALTER INDEX ti RENAME TO ti2;
ALTER TABLE tu RENAME TO tu2;
ALTER INDEX t_pkey RENAME TO t_pk2;
CREATE MATERIALIZED VIEW m AS SELECT a FROM t;
CREATE INDEX mi ON m (a);
ALTER INDEX mi RENAME TO mi2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT indexname FROM pg_indexes WHERE tablename IN ('t', 'm') ORDER BY 1", "[[mi2] [t_pk2] [ti2] [tu2]]"},
		{"SELECT conname FROM pg_constraint WHERE conrelid = 't'::regclass", "[[t_pk2]]"},
	})
	err := db.Exec("INSERT INTO t VALUES (2, 2, 'X')")
	if pgerr.Code(err) != pgerr.UniqueViolation || !strings.Contains(err.Error(), `"tu2"`) {
		t.Errorf("a duplicate of the renamed unique index after reopening: %v", err)
	}
}

// TestRenameTriggerReopen checks that a trigger ALTER TRIGGER … RENAME TO
// renamed is read back from the file under its new name, and fires so.
func TestRenameTriggerReopen(t *testing.T) {
	db := reopenedFileDB(t, "renametrigger.db", `CREATE TABLE t (id int PRIMARY KEY, note text);
CREATE FUNCTION tf() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN NEW.note := TG_NAME; RETURN NEW; END$$;
CREATE TRIGGER a1 BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION tf();
ALTER TABLE t DISABLE TRIGGER a1;
ALTER TRIGGER a1 ON t RENAME TO a2;
ALTER TABLE t ENABLE TRIGGER a2`)
	defer db.Close()
	if err := db.Exec("INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT tgname FROM pg_trigger WHERE tgrelid = 't'::regclass", "[[a2]]"},
		{"SELECT note FROM t", "[[a2]]"},
	})
}

// TestRenameSequenceViewReopen checks that a plain view calling a sequence
// that was renamed and moved calls it under its new key after the file
// is opened again.
func TestRenameSequenceViewReopen(t *testing.T) {
	db := reopenedFileDB(t, "renameseqview.db", `CREATE SEQUENCE sq;
CREATE VIEW vs AS SELECT nextval('sq') AS n;
SELECT * FROM vs;
ALTER SEQUENCE sq RENAME TO sq2;
CREATE SCHEMA s;
ALTER SEQUENCE sq2 SET SCHEMA s`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT * FROM vs", "[[2]]"},
		{"SELECT pg_get_viewdef('vs')", "[[ SELECT nextval('s.sq2'::regclass) AS n;]]"},
	})
}
