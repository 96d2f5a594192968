package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionTimes replicates time, time(p), timetz and interval
// columns: the copy and the streamed changes hold PostgreSQL's values,
// and a view grouped by a timetz follows them.
func TestSubscriptionTimes(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE tm (id int PRIMARY KEY, a time, b time(1), z timetz, i interval);
INSERT INTO tm VALUES (1, '10:00:00.123456', '10:00:00.16', '10:00-03:30', '1 mon 2 days 03:00'), (2, '24:00', NULL, '08:00+02', NULL);
CREATE PUBLICATION pt FOR TABLE tm;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION st CONNECTION '"+connStr+"' PUBLICATION pt WITH (slot_name = 'st_slot')")
	dv(t, e, `CREATE MATERIALIZED VIEW vt AS SELECT z, count(*) AS c, max(a) AS a, sum(i) AS i FROM tm GROUP BY z`)
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "st")
		sameRows(t, e, conn, "SELECT id, a, b, z, i FROM tm ORDER BY id", "SELECT id, a, b, z, i FROM tm ORDER BY id")
		sameRows(t, e, conn, "SELECT * FROM vt ORDER BY z", "SELECT z, count(*) AS c, max(a) AS a, sum(i) AS i FROM tm GROUP BY z ORDER BY z")
	}
	check()
	exec(t, conn, `
INSERT INTO tm VALUES (3, '23:59:59.999999', '23:59:59.96', '10:00-03:30', '-1 day');
UPDATE tm SET z = '06:00+00', b = '01:02:03.45' WHERE id = 2;
DELETE FROM tm WHERE id = 1;
`)
	check()
	dv(t, e, "DROP SUBSCRIPTION st")
}
