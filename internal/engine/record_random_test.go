package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestRecordRandom compares random row values with PostgreSQL: the text
// output of records (quoting, NULL fields, nesting), comparisons of row
// constructors (element-wise, NULL deciding) and of records (PostgreSQL's
// record order, NULL fields equal and last), null tests and IN lists; ad
// hoc, then as views over a table whose rows are used as records, under
// random changes.
func TestRecordRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 29)
	texts := []string{"a", "b", "x y", "", "NULL", `a"b`, `a\b`, "(,)", " ", "a,b", "é"}
	intLit := func() string {
		if r.IntN(4) == 0 {
			return "NULL::int"
		}
		return fmt.Sprint(r.IntN(4) - 1)
	}
	textLit := func() string {
		if r.IntN(4) == 0 {
			return "NULL::text"
		}
		return "'" + strings.ReplaceAll(texts[r.IntN(len(texts))], "'", "''") + "'::text"
	}
	// A shape is a row's field types, so that two rows of one shape
	// compare, as PostgreSQL requires.
	shape := func() []func() string {
		s := make([]func() string, 1+r.IntN(3))
		for i := range s {
			s[i] = []func() string{intLit, textLit}[r.IntN(2)]
		}
		return s
	}
	row := func(s []func() string) string {
		parts := make([]string, len(s))
		for i, f := range s {
			parts[i] = f()
		}
		return "ROW(" + strings.Join(parts, ", ") + ")"
	}
	cmp := func() string { return []string{"=", "<>", "<", "<=", ">", ">="}[r.IntN(6)] }
	exprs := []func() string{
		func() string { return row(shape()) },
		func() string {
			s := shape()
			return fmt.Sprintf("%s::text, ROW(%s, %s)::text", row(s), row(s), textLit())
		},
		func() string { s := shape(); return fmt.Sprintf("%s %s %s", row(s), cmp(), row(s)) },
		func() string { s := shape(); return fmt.Sprintf("%s IS DISTINCT FROM %s", row(s), row(s)) },
		func() string { s := shape(); return fmt.Sprintf("%s IS NULL, %s IS NOT NULL", row(s), row(s)) },
		func() string { s := shape(); return fmt.Sprintf("%s IN (%s, %s)", row(s), row(s), row(s)) },
		func() string { s := shape(); return fmt.Sprintf("%s NOT IN (%s, %s)", row(s), row(s), row(s)) },
		func() string { s := shape(); return fmt.Sprintf("(%s).f1, (%s).f%d", row(s), row(s), len(s)) },
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	compareAdHoc(t, 400, exprs, r, run, runPG)

	// Records of a table's rows: compared as records (not expanded), in
	// views under random changes.
	setup := `CREATE TABLE rr (id int PRIMARY KEY, a int, b text);
CREATE TABLE rs (id int PRIMARY KEY, a int, b text);
CREATE MATERIALIZED VIEW rr_rows AS SELECT id, rr AS r, rr IS NULL AS n, rr IS NOT NULL AS nn FROM rr;
CREATE MATERIALIZED VIEW rr_cmp AS SELECT x.id AS x, y.id AS y, ROW(x.a, x.b) < ROW(y.a, y.b) AS lt, ROW(x.a, x.b) = ROW(y.a, y.b) AS eq FROM rr x, rr y;
CREATE MATERIALIZED VIEW rr_join AS SELECT rr.id AS l, rs.id AS r, rs FROM rr LEFT JOIN rs ON (rr.a, rr.b) = (rs.a, rs.b);
CREATE MATERIALIZED VIEW rr_group AS SELECT count(*) AS c, min(id) AS m FROM rr GROUP BY ROW(a, b)`
	setupBoth(t, run, runPG, setup)
	views := []string{"rr_rows", "rr_cmp", "rr_join", "rr_group"}
	// The ad-hoc comparisons of records as values: record order, with
	// NULL fields equal and last.
	adhoc := []string{
		"SELECT x.id, y.id, x = y, x < y, x >= y, x IS DISTINCT FROM y FROM rr x, rr y ORDER BY 1, 2",
		"SELECT rr FROM rr ORDER BY rr, id",
		"SELECT DISTINCT ROW(a, b) AS k FROM rr ORDER BY k",
		"SELECT rr.id, rs FROM rr LEFT JOIN rs ON rs.a = rr.a ORDER BY rr.id, rs",
	}
	ids := map[string][]int{}
	next := 1
	for step := 0; step < 60; step++ {
		tbl := []string{"rr", "rs"}[r.IntN(2)]
		a, b := strings.TrimSuffix(intLit(), "::int"), strings.TrimSuffix(textLit(), "::text")
		var stmt string
		switch ks := ids[tbl]; {
		case len(ks) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ks))
			stmt = fmt.Sprintf("DELETE FROM %s WHERE id = %d", tbl, ks[k])
			ids[tbl] = slices.Delete(ks, k, k+1)
		case len(ks) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE %s SET a = %s, b = %s WHERE id = %d", tbl, a, b, ks[r.IntN(len(ks))])
		default:
			stmt = fmt.Sprintf("INSERT INTO %s VALUES (%d, %s, %s)", tbl, next, a, b)
			ids[tbl] = append(ks, next)
			next++
		}
		applyBoth(t, e, run, runPG, stmt, views)
		q := adhoc[r.IntN(len(adhoc))]
		got, gotErr := run(q)
		want, wantErr := runPG(q)
		if gotErr != wantErr || !slices.Equal(got, want) {
			t.Fatalf("after %s: %s:\ndeltaview %s %s\nPostgreSQL %s %s", stmt, q, gotErr, show(got), wantErr, show(want))
		}
	}
}
