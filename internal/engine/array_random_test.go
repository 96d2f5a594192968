package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestArrayRandom compares random array literals (quoting, white space,
// NULLs, escapes, malformed ones; one and two dimensions, lower bounds
// other than 1, ragged ones), operators, functions, subscripts and unnest
// with PostgreSQL: ad hoc, then as views over a table of random arrays
// under random inserts, updates and deletes.
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
	// lit2 is a two-dimensional literal, or a one-dimensional one with
	// bounds: sometimes with explicit bounds (now and then wrong ones),
	// now and then ragged.
	lit2 := func() string {
		rows, cols := 1+r.IntN(3), 1+r.IntN(3)
		var b strings.Builder
		bounds := r.IntN(3) == 0
		if r.IntN(5) == 0 {
			lo := r.IntN(4) - 2
			fmt.Fprintf(&b, "[%d:%d]=%s{", lo, lo+rows*cols-1+r.IntN(12)/11, space())
			for i := range rows * cols {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(space() + elemInt() + space())
			}
			return b.String() + "}"
		}
		if bounds {
			lo1, lo2 := r.IntN(4)-2, r.IntN(4)-1
			fmt.Fprintf(&b, "[%d:%d]%s[%d:%d]=", lo1, lo1+rows-1, space(), lo2, lo2+cols-1+r.IntN(12)/11)
		}
		b.WriteString(space() + "{")
		for i := range rows {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(space() + "{")
			n := cols
			if r.IntN(20) == 0 {
				n++
			}
			for j := range n {
				if j > 0 {
					b.WriteString(",")
				}
				b.WriteString(space() + elemInt() + space())
			}
			b.WriteString("}" + space())
		}
		return b.String() + "}"
	}
	ia2 := func() string {
		switch r.IntN(6) {
		case 0:
			return fmt.Sprintf("ARRAY[[%d, NULL], [%d, %d]]", r.IntN(4), r.IntN(4), r.IntN(4))
		case 1:
			return fmt.Sprintf("ARRAY[%s, %s]", ia(), ia())
		}
		return "'" + lit2() + "'::int[]"
	}
	anyA := func() string {
		if r.IntN(2) == 0 {
			return ia()
		}
		return ia2()
	}
	sub := func() string { return fmt.Sprint(r.IntN(5) - 1) }
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
		// Several dimensions and lower bounds.
		func() string { return ia2() },
		func() string {
			return fmt.Sprintf("%s = %s, %s < %s, %s >= %s", anyA(), anyA(), anyA(), anyA(), anyA(), anyA())
		},
		func() string {
			a := ia2()
			return fmt.Sprintf("(%s)[%s][%s], (%s)[%s], (%s)[%s:%s][%s:%s], (%s)[%s:%s][%s], (%s)[:%s], (%s)[%s:][:]",
				a, sub(), sub(), a, sub(), a, sub(), sub(), sub(), sub(), a, sub(), sub(), sub(), a, sub(), a, sub())
		},
		func() string {
			a, d := anyA(), r.IntN(4)
			return fmt.Sprintf("array_dims(%s), array_ndims(%s), array_length(%s, %d), array_lower(%s, %d), array_upper(%s, %d), cardinality(%s)",
				a, a, a, d, a, d, a, d, a)
		},
		func() string {
			return fmt.Sprintf("* FROM generate_subscripts(%s, %d, %t)", anyA(), r.IntN(3)+1, r.IntN(2) == 0)
		},
		func() string { return fmt.Sprintf("* FROM unnest(%s) WITH ORDINALITY", ia2()) },
		func() string {
			return fmt.Sprintf("%s || %s, array_cat(%s, %s)", anyA(), anyA(), anyA(), anyA())
		},
		func() string {
			return fmt.Sprintf("%s || %d, array_prepend(%d, %s)", anyA(), r.IntN(3), r.IntN(3), anyA())
		},
		func() string {
			return fmt.Sprintf("%s @> %s, %s <@ %s, %s && %s", anyA(), anyA(), anyA(), anyA(), anyA(), anyA())
		},
		func() string {
			return fmt.Sprintf("array_replace(%s, 1, 9), trim_array(%s, %d)", anyA(), anyA(), r.IntN(3))
		},
		func() string {
			return fmt.Sprintf("array_remove(%s, 1), array_position(%s, 1), array_positions(%s, 0)", anyA(), anyA(), anyA())
		},
		func() string {
			return fmt.Sprintf("array_to_json(%s), to_jsonb(%s), array_to_string(%s, ',', '*')", anyA(), anyA(), anyA())
		},
		func() string { return fmt.Sprintf("%s::text[], (%s)::text, (%s)::numeric[]", anyA(), anyA(), anyA()) },
		func() string {
			return fmt.Sprintf("array_fill(%d, ARRAY[%d, %d], ARRAY[%d, %d])", r.IntN(3), r.IntN(3), r.IntN(3), r.IntN(3)-1, r.IntN(3))
		},
		func() string {
			return fmt.Sprintf("array_agg(x ORDER BY x) FROM (VALUES (%s), (%s), (%s)) v(x)", anyA(), anyA(), anyA())
		},
	}
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	compareAdHoc(t, 600, exprs, r, run, runPG)

	// Views over random rows.
	setup := `CREATE TABLE ar (id int PRIMARY KEY, g int, a int[], s text[], m int[][]);
CREATE MATERIALIZED VIEW ar_vals AS SELECT id, a[1] AS a1, a[2:3] AS a23, cardinality(a) AS n, s || 'z'::text AS sz, ARRAY[g, id] AS gi, 1 = ANY (a) AS has1 FROM ar;
CREATE MATERIALIZED VIEW ar_group AS SELECT a, count(*) AS c, array_agg(id ORDER BY id) AS ids FROM ar GROUP BY a;
CREATE MATERIALIZED VIEW ar_unnest AS SELECT id, u.x, u.o FROM ar, unnest(a) WITH ORDINALITY AS u(x, o);
CREATE MATERIALIZED VIEW ar_counts AS SELECT x, count(*) AS c FROM ar, unnest(s) AS x GROUP BY x;
CREATE MATERIALIZED VIEW ar_zip AS SELECT id, unnest(a) AS x, unnest(s) AS y FROM ar WHERE g <> 1;
CREATE MATERIALIZED VIEW ar_md AS SELECT id, m[1][1] AS m11, m[2][0] AS m20, m[1:1][2:] AS m1, array_dims(m) AS d, cardinality(m) AS n, ARRAY[m, m] AS mm, array_to_json(m) AS j, m @> a AS ma FROM ar;
CREATE MATERIALIZED VIEW ar_mgroup AS SELECT m, count(*) AS c, array_agg(id ORDER BY id) AS ids, max(a) AS mx FROM ar GROUP BY m;
CREATE MATERIALIZED VIEW ar_magg AS SELECT g, array_agg(ARRAY[id, g] ORDER BY id) AS pairs, min(m) AS mn FROM ar GROUP BY g;
CREATE MATERIALIZED VIEW ar_munnest AS SELECT id, x, count(*) OVER (PARTITION BY x) AS c FROM ar, unnest(m) AS x`
	setupBoth(t, run, runPG, setup)
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
	okMD := func() string {
		for {
			s := anyA()
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
			stmt = fmt.Sprintf("UPDATE ar SET a = %s, g = %d, m = %s WHERE id = %d", okInt(), r.IntN(3), okMD(), ids[r.IntN(len(ids))])
		default:
			stmt = fmt.Sprintf("INSERT INTO ar VALUES (%d, %d, %s, %s, %s)", next, r.IntN(3), okInt(), okText(), okMD())
			ids = append(ids, next)
			next++
		}
		applyBoth(t, e, run, runPG, stmt, []string{"ar_vals", "ar_group", "ar_unnest", "ar_counts", "ar_zip", "ar_md", "ar_mgroup", "ar_magg", "ar_munnest"})
	}
}
