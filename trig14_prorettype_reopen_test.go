package deltaview_test

import (
	"testing"
)

// TestTriggerResultTypeReopen checks that pg_proc.prorettype of trigger
// and event trigger functions is trigger and event_trigger after the
// database file is reopened, and that their calls are still typed so.
func TestTriggerResultTypeReopen(t *testing.T) {
	db := reopenedFileDB(t, "trigtype.db", `CREATE FUNCTION trg() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE FUNCTION etrg() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN END $$;
CREATE TABLE t (a int)`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT proname, prorettype::regtype, prorettype::int FROM pg_proc WHERE proname IN ('trg', 'etrg') ORDER BY 1", "[[etrg event_trigger 3838] [trg trigger 2279]]"},
		{"SELECT count(*) FROM (SELECT trg(), etrg() FROM t) s", "[[0]]"},
	})
	if err := db.Exec(`SELECT 1 + etrg()`); err == nil {
		t.Fatal("1 + etrg() ran")
	}
}
