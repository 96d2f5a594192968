package deltaview_test

import (
	"testing"
)

// TestEventTriggerReopen checks that a database file keeps its event
// triggers, their mode, name and function, that they fire for no
// statement the file runs at open, and fire after it.
func TestEventTriggerReopen(t *testing.T) {
	db := reopenedFileDB(t, "evt.db", `CREATE TABLE ddl_log (n serial PRIMARY KEY, tag text);
CREATE FUNCTION log_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO ddl_log (tag) VALUES (tg_tag); END $$;
CREATE EVENT TRIGGER a ON ddl_command_start WHEN TAG IN ('CREATE TABLE', 'DROP TABLE') EXECUTE FUNCTION log_ddl();
CREATE EVENT TRIGGER b ON ddl_command_start EXECUTE FUNCTION log_ddl();
ALTER EVENT TRIGGER b DISABLE;
ALTER EVENT TRIGGER a RENAME TO c;
CREATE OR REPLACE FUNCTION log_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO ddl_log (tag) VALUES (lower(tg_tag)); END $$;
CREATE TABLE t (a int)`)
	defer db.Close()
	if err := db.Exec(`DROP TABLE t; CREATE VIEW v AS SELECT 1`); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT tag FROM ddl_log ORDER BY n", "[[create table] [drop table]]"},
		{"SELECT evtname, evtenabled, evtfoid::regproc, evttags FROM pg_event_trigger ORDER BY 1", "[[b D log_ddl NULL] [c O log_ddl {\"CREATE TABLE\",\"DROP TABLE\"}]]"},
	})
}
