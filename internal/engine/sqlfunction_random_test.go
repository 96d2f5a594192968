package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSQLFunctionRandom compares views calling SQL functions with
// PostgreSQL under random changes: scalar functions inlined as
// expressions (STRICT too), bodies reading tables bound as correlated
// subqueries (with a default, and a first row by ORDER BY), and
// set-returning functions LATERAL in FROM, inner and outer; polymorphic
// functions, inlined as the instance of their arguments' types.
func TestSQLFunctionRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 31)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TABLE fo (id int PRIMARY KEY, cust int, amt int);
CREATE TABLE fc (id int PRIMARY KEY, name text, lim int);
CREATE FUNCTION fnet(x int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT x * 2 + 1';
CREATE FUNCTION flabel(n text, x int) RETURNS text LANGUAGE sql STRICT AS $$ SELECT n || ':' || x $$;
CREATE FUNCTION fspent(c int) RETURNS bigint LANGUAGE sql STABLE AS 'SELECT sum(amt) FROM fo WHERE cust = c';
CREATE FUNCTION fover(c int, lim int DEFAULT 5) RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM fo WHERE cust = c AND amt > lim';
CREATE FUNCTION fbig(c int, lim int) RETURNS TABLE (id int, amt int) LANGUAGE sql AS 'SELECT id, amt FROM fo WHERE cust = c AND amt > lim';
CREATE FUNCTION fids(int) RETURNS SETOF int LANGUAGE sql AS 'SELECT id FROM fo WHERE cust = $1';
CREATE FUNCTION ftop(c int) RETURNS int LANGUAGE sql AS 'SELECT amt FROM fo WHERE cust = c ORDER BY amt DESC NULLS LAST, id';
CREATE MATERIALIZED VIEW fv_scalar AS SELECT fo.id, fnet(amt) AS n, flabel(name, lim) AS l, fnet(fnet(lim)) AS nn FROM fo, fc WHERE fo.cust = fc.id;
CREATE MATERIALIZED VIEW fv_spent AS SELECT id, fspent(id) AS s, fover(id) AS o5, fover(lim => lim, c => id) AS ol FROM fc;
CREATE MATERIALIZED VIEW fv_big AS SELECT fc.id, b.id AS bid, b.amt FROM fc, fbig(fc.id, fc.lim) b;
CREATE MATERIALIZED VIEW fv_ids AS SELECT fc.name, i FROM fc LEFT JOIN LATERAL fids(fc.id) i ON true;
CREATE MATERIALIZED VIEW fv_where AS SELECT id, name FROM fc WHERE fspent(id) > 10;
CREATE MATERIALIZED VIEW fv_top AS SELECT id, ftop(id) AS t FROM fc;
CREATE FUNCTION fsame(x anyelement) RETURNS anyelement LANGUAGE sql AS 'SELECT x';
CREATE FUNCTION fpick(a anycompatible, b anycompatible) RETURNS anycompatible LANGUAGE sql AS 'SELECT CASE WHEN a > b THEN a ELSE b END';
CREATE FUNCTION fpair(a anyelement, b anyelement) RETURNS anyarray LANGUAGE sql AS 'SELECT ARRAY[a, b]';
CREATE FUNCTION fof(x anyelement) RETURNS SETOF anyelement LANGUAGE sql AS 'SELECT cust FROM fo WHERE cust = x';
CREATE MATERIALIZED VIEW fv_poly AS SELECT id, fsame(name) AS s, fpick(lim, 2.5) AS p, fpair(lim, id) AS pr, fpick(fspent(id), lim) AS ps FROM fc;
CREATE MATERIALIZED VIEW fv_polyset AS SELECT fc.id, c FROM fc, fof(fc.lim) c`
	setupBoth(t, run, runPG, setup)
	views := []string{"fv_scalar", "fv_spent", "fv_big", "fv_ids", "fv_where", "fv_top", "fv_poly", "fv_polyset"}
	small := func() string {
		if r.IntN(5) == 0 {
			return "NULL"
		}
		return fmt.Sprint(r.IntN(12))
	}
	name := func() string {
		if r.IntN(5) == 0 {
			return "NULL"
		}
		return fmt.Sprintf("'%c'", 'a'+r.IntN(4))
	}
	ids := map[string][]int{}
	next := 1
	for step := 0; step < 80; step++ {
		tbl := []string{"fo", "fc"}[r.IntN(2)]
		var stmt string
		switch ks := ids[tbl]; {
		case len(ks) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ks))
			stmt = fmt.Sprintf("DELETE FROM %s WHERE id = %d", tbl, ks[k])
			ids[tbl] = slices.Delete(ks, k, k+1)
		case len(ks) > 0 && r.IntN(3) == 0 && tbl == "fo":
			stmt = fmt.Sprintf("UPDATE fo SET cust = %s, amt = %s WHERE id = %d", small(), small(), ks[r.IntN(len(ks))])
		case len(ks) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE fc SET name = %s, lim = %s WHERE id = %d", name(), small(), ks[r.IntN(len(ks))])
		case tbl == "fo":
			stmt = fmt.Sprintf("INSERT INTO fo VALUES (%d, %s, %s)", next, small(), small())
			ids[tbl] = append(ks, next)
			next++
		default:
			// Customers' ids are small, so that orders find them.
			id := 1 + r.IntN(8)
			if slices.Contains(ks, id) {
				continue
			}
			stmt = fmt.Sprintf("INSERT INTO fc VALUES (%d, %s, %s)", id, name(), small())
			ids[tbl] = append(ks, id)
		}
		applyBoth(t, e, run, runPG, stmt, views)
	}
}
