package deltaview_test

import "testing"

// TestPlpg13SuppressTriggerReopen: a trigger running the built-in
// suppress_redundant_updates_trigger comes back from the file, and goes
// on skipping the rows an UPDATE leaves as they were.
func TestPlpg13SuppressTriggerReopen(t *testing.T) {
	db := reopenedFileDB(t, "plpg13_suppress.db", `CREATE TABLE t (a int, b text);
INSERT INTO t VALUES (1, 'x'), (2, 'y');
CREATE TABLE log (n int);
CREATE FUNCTION logit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log VALUES (NEW.a); RETURN NEW; END $$;
CREATE TRIGGER z BEFORE UPDATE ON t FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger();
CREATE TRIGGER y AFTER UPDATE ON t FOR EACH ROW EXECUTE FUNCTION logit()`)
	defer db.Close()
	if err := db.Exec(`UPDATE t SET b = 'x'`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT tgname FROM pg_trigger WHERE tgfoid = 1291", "[[z]]"},
		{"SELECT n FROM log", "[[2]]"},
	})
}
