package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionGeometricTypes follows a table with a column of each
// geometric type through the initial copy and streamed changes: each
// maps to the same type, and a view computing with them stays as
// PostgreSQL computes.
func TestSubscriptionGeometricTypes(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE g (id int PRIMARY KEY, p point, l lseg, pa path, b box, po polygon, li line, c circle);
INSERT INTO g VALUES (1, '(1,2)', '[(0,0),(1,1)]', '[(0,0),(1,1),(2,0)]', '(2,2),(0,0)', '((0,0),(1,1),(2,0))', '{1,-1,0}', '<(1,1),2>'),
	(2, '(-1.5,1e-7)', NULL, '((0,0),(3,3))', '(1,1),(1,1)', NULL, NULL, '<(0,0),0.5>');
CREATE PUBLICATION pg FOR TABLE g;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION sg CONNECTION '"+connStr+"' PUBLICATION pg WITH (slot_name = 'sg_slot')")
	const q = "SELECT id, p, l, pa, b, po, li, c, p <-> b AS d, p <@ c AS inside, area(b) AS a FROM g"
	dv(t, e, "CREATE MATERIALIZED VIEW vg AS "+q)
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "sg")
		sameRows(t, e, conn, "SELECT * FROM vg", q)
	}
	check()
	exec(t, conn, `
INSERT INTO g VALUES (3, '(3,3)', '[(1,2),(3,4)]', '[(1,1)]', '(5,5),(4,4)', '((1,1),(2,2),(3,1))', '{0,1,-2}', '<(3,3),1>');
UPDATE g SET p = p + point '(1,1)', b = b * point '(2,0)' WHERE id = 1;
DELETE FROM g WHERE id = 2;
`)
	check()
	if got := dvRows(t, e, "SELECT DISTINCT pg_typeof(p)::text, pg_typeof(l)::text, pg_typeof(pa)::text, pg_typeof(b)::text, pg_typeof(po)::text, pg_typeof(li)::text, pg_typeof(c)::text FROM g"); len(got) != 1 || got[0] != "point|lseg|path|box|polygon|line|circle" {
		t.Errorf("types: %q", got)
	}
	dv(t, e, "DROP SUBSCRIPTION sg")
}
