package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionEnums follows a table keyed by an upstream enum through
// the initial copy and streamed changes: the enum maps to text, its
// labels.
func TestSubscriptionEnums(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE h (m mood PRIMARY KEY, n int);
INSERT INTO h VALUES ('ok', 1), ('sad', 2);
CREATE PUBLICATION pe FOR TABLE h;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION se CONNECTION '"+connStr+"' PUBLICATION pe WITH (slot_name = 'se_slot')")
	dv(t, e, `CREATE MATERIALIZED VIEW vh AS SELECT m, n FROM h`)
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "se")
		sameRows(t, e, conn, "SELECT * FROM vh", "SELECT m::text, n FROM h")
	}
	check()
	exec(t, conn, `
INSERT INTO h VALUES ('happy', 3);
UPDATE h SET n = 4 WHERE m = 'ok';
DELETE FROM h WHERE m = 'sad';
`)
	check()
	if got := dvRows(t, e, "SELECT DISTINCT pg_typeof(m)::text FROM h"); len(got) != 1 || got[0] != "text" {
		t.Errorf("types: %q", got)
	}
	dv(t, e, "DROP SUBSCRIPTION se")
}
