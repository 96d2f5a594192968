package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionNetworkTypes follows a table keyed by inet with cidr,
// macaddr and macaddr8 columns through the initial copy and streamed
// changes: each maps to the same type.
func TestSubscriptionNetworkTypes(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE h (a inet PRIMARY KEY, n cidr, m macaddr, m8 macaddr8);
INSERT INTO h VALUES ('192.168.1.5/24', '192.168.1.0/24', '08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05'), ('2001:db8::1', '2001:db8::/32', NULL, NULL);
CREATE PUBLICATION pn FOR TABLE h;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION sn CONNECTION '"+connStr+"' PUBLICATION pn WITH (slot_name = 'sn_slot')")
	dv(t, e, `CREATE MATERIALIZED VIEW vh AS SELECT a, n, m, m8, a << n AS inside, masklen(a) AS ml FROM h`)
	const q = "SELECT a, n, m, m8, a << n AS inside, masklen(a) AS ml FROM h"
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "sn")
		sameRows(t, e, conn, "SELECT * FROM vh", q)
	}
	check()
	exec(t, conn, `
INSERT INTO h VALUES ('10.0.0.1', '10.0.0.0/8', 'ff:ff:ff:ff:ff:ff', '00:00:00:00:00:00:00:01');
UPDATE h SET n = '192.168.0.0/16', m = trunc(m) WHERE a = '192.168.1.5/24';
DELETE FROM h WHERE a = '2001:db8::1';
`)
	check()
	if got := dvRows(t, e, "SELECT DISTINCT pg_typeof(a)::text, pg_typeof(n)::text, pg_typeof(m)::text, pg_typeof(m8)::text FROM h"); len(got) != 1 || got[0] != "inet|cidr|macaddr|macaddr8" {
		t.Errorf("types: %q", got)
	}
	dv(t, e, "DROP SUBSCRIPTION sn")
}
