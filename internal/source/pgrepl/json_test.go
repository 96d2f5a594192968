package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionJSON follows a table with json and jsonb columns through
// the initial copy and streamed changes: json keeps its text, jsonb is the
// same document, and a view grouping by jsonb agrees with PostgreSQL.
func TestSubscriptionJSON(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE d (id int PRIMARY KEY, j jsonb, k json);
INSERT INTO d VALUES (1, '{"b": 1.50, "a": [null, "x\n"]}', '{"b" :  1, "b": 2}'), (2, '"s"', NULL);
CREATE PUBLICATION pd FOR TABLE d;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION sd CONNECTION '"+connStr+"' PUBLICATION pd WITH (slot_name = 'sd_slot')")
	dv(t, e, `CREATE MATERIALIZED VIEW vd AS SELECT id, j, k::text AS k, j -> 'a' AS a FROM d;
CREATE MATERIALIZED VIEW vg AS SELECT j, count(*) AS c FROM d GROUP BY j`)
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "sd")
		sameRows(t, e, conn, "SELECT * FROM vd", "SELECT id, j, k::text AS k, j -> 'a' AS a FROM d")
		sameRows(t, e, conn, "SELECT * FROM vg", "SELECT j, count(*) AS c FROM d GROUP BY j")
	}
	check()
	exec(t, conn, `
INSERT INTO d VALUES (3, '{"a": [null, "x\n"], "b": 1.50}', '[ 1 ]');
UPDATE d SET j = j || '{"c": {}}', k = '{"z":null}' WHERE id = 2;
DELETE FROM d WHERE id = 1;
`)
	check()
	dv(t, e, "DROP SUBSCRIPTION sd")
}
