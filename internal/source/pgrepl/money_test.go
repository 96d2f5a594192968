package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionMoney follows a table with a money column through the
// initial copy and streamed changes: it maps to money, and a view's sum
// follows.
func TestSubscriptionMoney(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE m (id int PRIMARY KEY, acct text, amt money);
INSERT INTO m VALUES (1, 'a', '$1,234.56'), (2, 'a', '-0.01'), (3, 'b', NULL);
CREATE PUBLICATION pm FOR TABLE m;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION sm CONNECTION '"+connStr+"' PUBLICATION pm WITH (slot_name = 'sm_slot')")
	dv(t, e, `CREATE MATERIALIZED VIEW vm AS SELECT acct, sum(amt) AS total, max(amt) AS hi FROM m GROUP BY acct`)
	const q = "SELECT acct, sum(amt) AS total, max(amt) AS hi FROM m GROUP BY acct"
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "sm")
		sameRows(t, e, conn, "SELECT * FROM vm", q)
	}
	check()
	exec(t, conn, `
INSERT INTO m VALUES (4, 'b', '92233720368547758.07');
UPDATE m SET amt = amt * 2 WHERE id = 1;
DELETE FROM m WHERE id = 2;
`)
	check()
	if got := dvRows(t, e, "SELECT DISTINCT pg_typeof(amt)::text FROM m"); len(got) != 1 || got[0] != "money" {
		t.Errorf("types: %q", got)
	}
	dv(t, e, "DROP SUBSCRIPTION sm")
}
