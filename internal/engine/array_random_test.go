package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestArrayRandom compares random array literals (quoting, white space,
// NULLs, escapes, malformed ones), operators, functions and unnest with
// PostgreSQL: ad hoc, then as views over a table of random arrays under
// random inserts, updates and deletes.
func TestArrayRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 23)
	space := func() string { return []string{"", "", " ", "  ", "\t"}[r.IntN(5)] }
	elemInt := func() string {
		if r.IntN(6) == 0 {
			return []string{"NULL", "null", `"3"`, `"NULL"`, "x", ""}[r.IntN(6)]
		}
		return fmt.Sprint(r.IntN(7) - 2)
	}
	elemText := func() string {
		return []string{"a", "b c", `"b c"`, `""`, "NULL", `"NULL"`, `"x\"y"`, `x\,y`, `"{"`, "ab", `\\`, `" s "`}[r.IntN(12)]
	}
	lit := func(elem func() string) string {
		n := r.IntN(5)
		var b strings.Builder
		b.WriteString(space() + "{")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(space() + elem() + space())
		}
		b.WriteString("}" + space())
		if r.IntN(25) == 0 {
			return []string{"{1,", "1,2", "{1}}", "{1,,2}", "{1 2}"}[r.IntN(5)]
		}
		return b.String()
	}
	ia := func() string {
		if r.IntN(4) == 0 {
			return fmt.Sprintf("ARRAY[%d, %d, NULL]", r.IntN(4), r.IntN(4))
		}
		return "'" + lit(elemInt) + "'::int[]"
	}
	ta := func() string { return "'" + strings.ReplaceAll(lit(elemText), "'", "''") + "'::text[]" }
	exprs := []func() string{
		func() string { return ia() },
		func() string { return ta() },
		func() string { return fmt.Sprintf("%s = %s, %s < %s, %s >= %s", ia(), ia(), ia(), ia(), ta(), ta()) },
		func() string { return fmt.Sprintf("%d = ANY (%s), %d < ALL (%s)", r.IntN(4), ia(), r.IntN(4), ia()) },
		func() string {
			return fmt.Sprintf("(%s)[%d], (%s)[%d:%d]", ia(), r.IntN(5)-1, ta(), r.IntN(4)-1, r.IntN(5))
		},
		func() string { return fmt.Sprintf("cardinality(%s), array_length(%s, 1)", ia(), ta()) },
		func() string {
			return fmt.Sprintf("array_position(%s, %d), array_positions(%s, NULL)", ia(), r.IntN(3), ia())
		},
		func() string {
			return fmt.Sprintf("%s || %s, %s || %d, array_remove(%s, 1)", ia(), ia(), ia(), r.IntN(3), ia())
		},
		func() string {
			return fmt.Sprintf("array_to_string(%s, ',', '*'), array_to_string(%s, '|')", ta(), ia())
		},
		func() string {
			return fmt.Sprintf("string_to_array('%s', ',', 'x')", []string{"a,b", "x,,y", "", ",", "a"}[r.IntN(5)])
		},
		func() string { return fmt.Sprintf("%s::text, (%s)::bigint[]", ia(), ia()) },
		func() string { return fmt.Sprintf("* FROM unnest(%s, %s) WITH ORDINALITY", ia(), ta()) },
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	compareAdHoc(t, 400, exprs, r, run, runPG)

	// Views over random rows.
	setup := `CREATE TABLE ar (id int PRIMARY KEY, g int, a int[], s text[]);
CREATE MATERIALIZED VIEW ar_vals AS SELECT id, a[1] AS a1, a[2:3] AS a23, cardinality(a) AS n, s || 'z'::text AS sz, ARRAY[g, id] AS gi, 1 = ANY (a) AS has1 FROM ar;
CREATE MATERIALIZED VIEW ar_group AS SELECT a, count(*) AS c, array_agg(id ORDER BY id) AS ids FROM ar GROUP BY a;
CREATE MATERIALIZED VIEW ar_unnest AS SELECT id, u.x, u.o FROM ar, unnest(a) WITH ORDINALITY AS u(x, o);
CREATE MATERIALIZED VIEW ar_counts AS SELECT x, count(*) AS c FROM ar, unnest(s) AS x GROUP BY x;
CREATE MATERIALIZED VIEW ar_zip AS SELECT id, unnest(a) AS x, unnest(s) AS y FROM ar WHERE g <> 1`
	for _, stmt := range strings.Split(setup, ";\n") {
		if _, code := run(stmt); code != "" {
			t.Fatalf("%s: %s", stmt, code)
		}
		if _, code := runPG(strings.Replace(stmt, "MATERIALIZED ", "", 1)); code != "" {
			t.Fatalf("PostgreSQL: %s: %s", stmt, code)
		}
	}
	okInt := func() string {
		for {
			s := ia()
			if _, code := runPG("SELECT " + s); code == "" {
				return s
			}
		}
	}
	okText := func() string {
		for {
			s := ta()
			if _, code := runPG("SELECT " + s); code == "" {
				return s
			}
		}
	}
	ids := []int{}
	next := 1
	for step := 0; step < 80; step++ {
		var stmt string
		switch {
		case len(ids) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM ar WHERE id = %d", ids[k])
			ids = slices.Delete(ids, k, k+1)
		case len(ids) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE ar SET a = %s, g = %d WHERE id = %d", okInt(), r.IntN(3), ids[r.IntN(len(ids))])
		default:
			stmt = fmt.Sprintf("INSERT INTO ar VALUES (%d, %d, %s, %s)", next, r.IntN(3), okInt(), okText())
			ids = append(ids, next)
			next++
		}
		applyBoth(t, e, run, runPG, stmt, []string{"ar_vals", "ar_group", "ar_unnest", "ar_counts", "ar_zip"})
	}
}
