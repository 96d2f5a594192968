package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionArraysRangesTextSearch follows a table with array,
// range, multirange, text search and jsonpath columns through the initial
// copy and streamed changes: each maps to the same type.
func TestSubscriptionArraysRangesTextSearch(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE c (id int PRIMARY KEY, ints int[], names varchar(5)[], nums numeric(6,2)[], r int4range, ts tstzrange,
  mr datemultirange, v tsvector, q tsquery, p jsonpath, qs tsquery[]);
INSERT INTO c VALUES (1, '{1,NULL,3}', '{ab,"c d"}', '{1.5,2}', '[1,5)', '[2026-01-01 10:00+00,)', '{[2026-01-01,2026-02-01)}',
  'a fat cat', 'fat & cat', '$.a[*] ? (@ > 1)', '{a|b}'), (2, '{}', NULL, NULL, 'empty', NULL, '{}', '', 'x', '$', NULL);
CREATE PUBLICATION pc FOR TABLE c;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION sc CONNECTION '"+connStr+"' PUBLICATION pc WITH (slot_name = 'sc_slot')")
	const q = "SELECT id, ints, names, nums, r, ts, mr, v, q, p, qs, cardinality(ints) AS n, upper(r) AS hi, v @@ q AS hit FROM c"
	dv(t, e, "CREATE MATERIALIZED VIEW vc AS "+q)
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "sc")
		sameRows(t, e, conn, "SELECT * FROM vc", q)
	}
	check()
	exec(t, conn, `
INSERT INTO c VALUES (3, ARRAY[[1,2],[3,4]], '{x}', '{0.01}', '(,10]', '(,)', '{[2026-03-01,2026-03-05]}', 'cats', 'cat:*', '$.b', '{x,y&z}');
UPDATE c SET ints = ints || 7, r = '[2,9)', v = v || 'dog' WHERE id = 1;
DELETE FROM c WHERE id = 2;
`)
	check()
	const types = "SELECT DISTINCT pg_typeof(ints)::text, pg_typeof(names)::text, pg_typeof(r)::text, pg_typeof(mr)::text, pg_typeof(v)::text, pg_typeof(q)::text, pg_typeof(p)::text, pg_typeof(qs)::text FROM c"
	if got := dvRows(t, e, types); len(got) != 1 || got[0] != "integer[]|character varying[]|int4range|datemultirange|tsvector|tsquery|jsonpath|tsquery[]" {
		t.Errorf("types: %q", got)
	}
	dv(t, e, "DROP SUBSCRIPTION sc")
}
