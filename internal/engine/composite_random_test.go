package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestCompositeRandom keeps views over columns of a composite type, of an
// array of it, of a nested composite type and of a table's row type under
// random inserts, updates (whole values and single fields) and deletes,
// and compares every view with PostgreSQL after each statement: groups by
// a record and by a field, a filter on fields, a join on records,
// DISTINCT, a top-k in record order, min/max over a field and field
// selection through arrays and nesting.
func TestCompositeRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 43)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TYPE pt AS (x int, tag text);
CREATE TYPE box2 AS (lo pt, hi pt, n int);
CREATE TABLE base (a int, b text);
CREATE TABLE cs (id int PRIMARY KEY, p pt, ps pt[], bx box2, br base);
CREATE TABLE marks (p pt, label text);
CREATE MATERIALIZED VIEW c_group AS SELECT p, count(*) AS c FROM cs GROUP BY p;
CREATE MATERIALIZED VIEW c_field AS SELECT (p).tag, count(*) AS c, min((p).x) AS lo, max((bx).n) AS hi FROM cs GROUP BY (p).tag;
CREATE MATERIALIZED VIEW c_filter AS SELECT id, p, (bx).lo FROM cs WHERE (p).x > 1 AND p IS NOT NULL;
CREATE MATERIALIZED VIEW c_join AS SELECT m.label, cs.id FROM cs JOIN marks m ON m.p = cs.p;
CREATE MATERIALIZED VIEW c_distinct AS SELECT DISTINCT bx FROM cs;
CREATE MATERIALIZED VIEW c_top AS SELECT id, p FROM cs ORDER BY p DESC, id LIMIT 3;
CREATE MATERIALIZED VIEW c_nested AS SELECT id, ((bx).hi).x AS hx, (ps[1]).tag AS first_tag, (br).b, p IS NULL AS pnull FROM cs`
	setupBoth(t, run, runPG, setup)
	views := []string{"c_group", "c_field", "c_filter", "c_join", "c_distinct", "c_top", "c_nested"}
	ptv := func() string {
		switch r.IntN(8) {
		case 0:
			return "NULL"
		case 1:
			return "ROW(NULL, NULL)"
		}
		tag := []string{"'a'", "'b'", "NULL", "'c d'"}[r.IntN(4)]
		return fmt.Sprintf("ROW(%d, %s)", r.IntN(4), tag)
	}
	var ids []int
	for step := 0; step < 200; step++ {
		var stmt string
		switch {
		case r.IntN(8) == 0:
			stmt = fmt.Sprintf("INSERT INTO marks VALUES (%s, 'm%d')", ptv(), step)
		case len(ids) > 0 && r.IntN(5) == 0:
			i := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM cs WHERE id = %d", ids[i])
			ids = append(ids[:i], ids[i+1:]...)
		case len(ids) > 0 && r.IntN(3) == 0:
			id := ids[r.IntN(len(ids))]
			switch r.IntN(4) {
			case 0:
				stmt = fmt.Sprintf("UPDATE cs SET p = %s WHERE id = %d", ptv(), id)
			case 1:
				stmt = fmt.Sprintf("UPDATE cs SET p.x = %d WHERE id = %d", r.IntN(4), id)
			case 2:
				stmt = fmt.Sprintf("UPDATE cs SET bx.n = %d, br.b = 'u%d' WHERE id = %d", r.IntN(3), step, id)
			default:
				stmt = fmt.Sprintf("UPDATE cs SET ps = ARRAY[%s::pt], bx = ROW(%s, %s, %d) WHERE id = %d", ptv(), ptv(), ptv(), r.IntN(3), id)
			}
		default:
			id := step
			ids = append(ids, id)
			stmt = fmt.Sprintf("INSERT INTO cs VALUES (%d, %s, ARRAY[%s::pt, %s::pt], ROW(%s, %s, %d), ROW(%d, 'b%d'))",
				id, ptv(), ptv(), ptv(), ptv(), ptv(), r.IntN(3), r.IntN(3), r.IntN(2))
		}
		applyBoth(t, e, run, runPG, stmt, views)
	}
}
