package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionXML follows a table with an xml column through the
// initial copy and streamed changes: it maps to xml and keeps its text.
func TestSubscriptionXML(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE hx (id int PRIMARY KEY, x xml);
INSERT INTO hx VALUES (1, '<a>one</a>'), (2, '<?xml version="1.1"?><b/>');
CREATE PUBLICATION px FOR TABLE hx;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION sx CONNECTION '"+connStr+"' PUBLICATION px WITH (slot_name = 'sx_slot')")
	dv(t, e, `CREATE MATERIALIZED VIEW vx AS SELECT id, x::text AS s, xmlelement(name r, x) AS e, x IS DOCUMENT AS d FROM hx`)
	const q = "SELECT id, x::text AS s, xmlelement(name r, x) AS e, x IS DOCUMENT AS d FROM hx"
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "sx")
		sameRows(t, e, conn, "SELECT * FROM vx", q)
	}
	check()
	exec(t, conn, `
INSERT INTO hx VALUES (3, 'free <i>text</i>');
UPDATE hx SET x = '<c/>' WHERE id = 1;
DELETE FROM hx WHERE id = 2;
`)
	check()
	if got := dvRows(t, e, "SELECT DISTINCT pg_typeof(x)::text FROM hx"); len(got) != 1 || got[0] != "xml" {
		t.Errorf("types: %q", got)
	}
	dv(t, e, "DROP SUBSCRIPTION sx")
}
