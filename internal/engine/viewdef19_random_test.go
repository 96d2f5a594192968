package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestViewDefFromRandom creates views with random FROM clauses (LATERAL
// subqueries, generate_series and unnest, VALUES, joins of them) and
// conditions with COLLATE and BETWEEN SYMMETRIC, in deltaview and in
// PostgreSQL, and compares pg_get_viewdef, plain and pretty, byte for
// byte; each printed text must also make a view of the same rows.
func TestViewDefFromRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 1919)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	opt := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	runBoth(t, run, runPG,
		"CREATE TABLE ft (id int, x text, n numeric)",
		"CREATE TABLE fu (id int, q int)",
		"INSERT INTO ft VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, NULL, 2), (NULL, 'c', 0)",
		"INSERT INTO fu VALUES (1, 10), (1, 11), (3, 30), (5, NULL)")
	// Each item names one output column, o<i>, read from the left item.
	item := func(i int) (from, col string) {
		a := fmt.Sprintf("s%d", i)
		switch r.IntN(6) {
		case 0:
			return opt("", "LATERAL ") + "generate_series(1, " + opt("2", "ft.id", "3::bigint") + ") " + opt(a, a+"(z)", "WITH ORDINALITY "+a+"(z, k)"), a + "." + opt("*", "z")
		case 1:
			return "unnest(" + opt("ARRAY[ft.id, 7]", "ARRAY['p', ft.x]", "ARRAY[1.5, 2]") + ") " + a + "(z)", a + ".z"
		case 2:
			return "LATERAL (SELECT fu.q AS z FROM fu WHERE fu.id = ft.id" + opt("", " AND fu.q "+opt("BETWEEN SYMMETRIC 11 AND 10", "NOT BETWEEN SYMMETRIC 30 AND 11")) + ") " + a, a + ".z"
		case 3:
			return "(VALUES (1, 'v'), (" + opt("2", "NULL") + ", " + opt("NULL", "'w'") + ")) " + opt(a, a+"(z)"), a + "." + opt("*", "column2")
		case 4:
			return "LATERAL (VALUES (ft.id), (ft.id + 1)) " + a + "(z)", a + ".z"
		}
		return "(SELECT fu.id AS z, fu.q FROM fu) " + a, a + ".z"
	}
	query := func() string {
		from, col := item(0)
		targets := "ft.id, " + col
		clause := "FROM ft"
		switch r.IntN(3) {
		case 0:
			clause += ", " + from
		case 1:
			clause += " " + opt("JOIN", "LEFT JOIN") + " " + from + " ON " + opt("true", "ft.id IS NOT NULL")
		default:
			from2, col2 := item(1)
			clause += ", " + from + " " + opt("JOIN", "LEFT JOIN") + " " + from2 + " ON true"
			if !strings.HasSuffix(col2, "*") {
				col2 += " AS o1"
			}
			targets += ", " + col2
		}
		where := opt("", " WHERE ft.x < 'b' COLLATE \"C\"", " WHERE ft.id BETWEEN SYMMETRIC 3 AND 1", " WHERE ft.x COLLATE \"POSIX\" IS NOT NULL")
		return "SELECT " + targets + " " + clause + where
	}
	// The pretty text read back is a view of the same rows.
	compareViewDefs(t, run, runPG, "fv", query, func(name, stmt string) {
		text, _ := run("SELECT pg_get_viewdef('" + name + "'::regclass, true)")
		if len(text) != 1 {
			t.Fatalf("%s: %q", name, text)
		}
		back := "CREATE VIEW " + name + "_back AS " + strings.TrimSuffix(text[0], ";")
		if _, code := run(back); code != "" {
			t.Fatalf("%s: %s", back, code)
		}
		diff := "SELECT count(*) FROM ((SELECT * FROM " + name + " EXCEPT ALL SELECT * FROM " + name + "_back) UNION ALL (SELECT * FROM " + name + "_back EXCEPT ALL SELECT * FROM " + name + ")) d"
		if rows, code := run(diff); code != "" || !slices.Equal(rows, []string{"0"}) {
			t.Fatalf("%s\n%s: %v %s", stmt, back, rows, code)
		}
	})
}
