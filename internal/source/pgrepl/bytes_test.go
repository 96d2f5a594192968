package pgrepl_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSubscriptionBytesTypes follows a table keyed by uuid with bytea and
// bit string columns through the initial copy and streamed changes: each
// maps to the same type.
func TestSubscriptionBytesTypes(t *testing.T) {
	conn, connStr := upstream(t)
	exec(t, conn, `
CREATE TABLE k (id uuid PRIMARY KEY, b bytea, f bit(3), v varbit(8));
INSERT INTO k VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\x00ff5c', B'101', B'1'), (gen_random_uuid(), NULL, B'000', '');
CREATE PUBLICATION pb FOR TABLE k;
`)
	e := engine.New()
	defer e.Close()
	dv(t, e, "CREATE SUBSCRIPTION sb CONNECTION '"+connStr+"' PUBLICATION pb WITH (slot_name = 'sb_slot')")
	dv(t, e, `CREATE MATERIALIZED VIEW vk AS SELECT id, b, f, v, length(b) AS lb, f::int AS fi FROM k`)
	const q = "SELECT id, b, f, v, length(b) AS lb, f::int AS fi FROM k"
	check := func() {
		t.Helper()
		waitApplied(t, e, conn, "sb")
		sameRows(t, e, conn, "SELECT * FROM vk", q)
	}
	check()
	exec(t, conn, `
INSERT INTO k VALUES (gen_random_uuid(), decode('deadbeef', 'hex'), B'111', B'10101010');
UPDATE k SET b = b || '\x01', f = ~f WHERE id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
DELETE FROM k WHERE f = B'000';
`)
	check()
	if got := dvRows(t, e, "SELECT DISTINCT pg_typeof(id)::text, pg_typeof(b)::text, pg_typeof(f)::text, pg_typeof(v)::text FROM k"); len(got) != 1 || got[0] != "uuid|bytea|bit|bit varying" {
		t.Errorf("types: %q", got)
	}
	// The slot is the cluster's, and a database with a slot cannot be dropped.
	dv(t, e, "DROP SUBSCRIPTION sb")
}
