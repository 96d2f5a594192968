package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestUserAggregateRandom compares views calling user-defined aggregates
// (and an operator) with PostgreSQL under random changes: strict and
// non-strict transition functions, with and without INITCOND, a final
// function, two arguments, DISTINCT, FILTER and ORDER BY, grouped and
// global.
func TestUserAggregateRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 47)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TABLE ua (id int PRIMARY KEY, g int, v int, s text);
CREATE FUNCTION ua_sq(st numeric, x int) RETURNS numeric LANGUAGE sql IMMUTABLE AS 'SELECT coalesce(st, 0) + coalesce(x, 7) * coalesce(x, 7)';
CREATE FUNCTION ua_cat(st text, x text, sep text) RETURNS text LANGUAGE sql AS $$ SELECT st || sep || coalesce(x, '?') $$;
CREATE FUNCTION ua_len(st text) RETURNS int LANGUAGE sql STRICT AS 'SELECT length(st)';
CREATE FUNCTION ua_mul(a int, b int) RETURNS int LANGUAGE sql AS 'SELECT a * 3 + b';
CREATE AGGREGATE ua_sum(int) (SFUNC = int4pl, STYPE = int);
CREATE AGGREGATE ua_sum0(int) (SFUNC = int4pl, STYPE = int, INITCOND = '0');
CREATE AGGREGATE ua_sqsum(int) (SFUNC = ua_sq, STYPE = numeric);
CREATE AGGREGATE ua_join(text, text) (SFUNC = ua_cat, STYPE = text, INITCOND = '');
CREATE AGGREGATE ua_joinlen(text, text) (SFUNC = ua_cat, STYPE = text, FINALFUNC = ua_len, INITCOND = '>');
CREATE AGGREGATE ua_max(int) (SFUNC = int4larger, STYPE = int);
CREATE OPERATOR <*> (LEFTARG = int, RIGHTARG = int, FUNCTION = ua_mul);
CREATE MATERIALIZED VIEW uv_g AS SELECT g, ua_sum(v) AS s, ua_sum0(DISTINCT v) AS d, ua_sqsum(v) AS q,
  ua_join(s, ',' ORDER BY id) AS j, ua_joinlen(s, '-' ORDER BY s DESC, id) FILTER (WHERE v > 3) AS l,
  ua_max(v <*> g) AS m, count(*) AS n FROM ua GROUP BY g;
CREATE MATERIALIZED VIEW uv_all AS SELECT ua_sum(v) AS s, ua_sum0(v) AS s0, ua_sqsum(DISTINCT v) AS q, ua_max(v) AS m FROM ua;
CREATE MATERIALIZED VIEW uv_having AS SELECT g, ua_sum0(v) AS s FROM ua GROUP BY g HAVING ua_sqsum(v) > 100`
	setupBoth(t, run, runPG, setup)
	views := []string{"uv_g", "uv_all", "uv_having"}
	small := func() string {
		if r.IntN(5) == 0 {
			return "NULL"
		}
		return fmt.Sprint(r.IntN(10))
	}
	text := func() string {
		if r.IntN(5) == 0 {
			return "NULL"
		}
		return fmt.Sprintf("'%c'", 'a'+r.IntN(5))
	}
	var ids []int
	next := 1
	for step := 0; step < 80; step++ {
		var stmt string
		switch {
		case len(ids) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM ua WHERE id = %d", ids[k])
			ids = slices.Delete(ids, k, k+1)
		case len(ids) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE ua SET g = %d, v = %s, s = %s WHERE id = %d", r.IntN(4), small(), text(), ids[r.IntN(len(ids))])
		default:
			stmt = fmt.Sprintf("INSERT INTO ua VALUES (%d, %d, %s, %s)", next, r.IntN(4), small(), text())
			ids = append(ids, next)
			next++
		}
		applyBoth(t, e, run, runPG, stmt, views)
	}
}
