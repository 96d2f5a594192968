package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// hstoreWords are the keys and values random hstores are made of: quotes,
// backslashes, blanks, the separators and NULL's spelling among them.
var hstoreWords = []string{"a", "b", "c", "aa", "ab", "b a", `q"`, `x\y`, "", "NULL", "null", "1", "=>", ",", "é"}

// hstoreLiteral is a random hstore written as its input syntax allows:
// keys and values quoted or not (escaped with backslashes), NULL values,
// repeated keys, blanks around the pieces; as a SQL literal.
func hstoreLiteral(r *rand.Rand) string {
	word := func() string {
		w := hstoreWords[r.IntN(len(hstoreWords))]
		if r.IntN(2) == 0 || w == "" || strings.ContainsAny(w, ` "\=>,`) || strings.EqualFold(w, "null") {
			return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(w) + `"`
		}
		return w
	}
	sp := func() string { return []string{"", "", " ", "  "}[r.IntN(4)] }
	var parts []string
	for n := r.IntN(5); n > 0; n-- {
		v := word()
		if r.IntN(5) == 0 {
			v = []string{"NULL", "null", "Null"}[r.IntN(3)]
		}
		parts = append(parts, sp()+word()+sp()+"=>"+sp()+v+sp())
	}
	return "'" + strings.ReplaceAll(strings.Join(parts, ","), "'", "''") + "'::hstore"
}

// TestRandomHstore compares hstore's input, output, operators and
// functions with PostgreSQL's on random values, ad hoc, then in views
// over random rows.
func TestRandomHstore(t *testing.T) {
	pg, ctx, r := randomPG(t, 0x6873)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setupBoth(t, run, runPG, "CREATE EXTENSION hstore; CREATE TYPE hkv AS (a text, b text)")
	h := func() string { return hstoreLiteral(r) }
	key := func() string {
		return "'" + strings.ReplaceAll(hstoreWords[r.IntN(len(hstoreWords))], "'", "''") + "'::text"
	}
	keys := func() string { return fmt.Sprintf("ARRAY[%s, %s]", key(), key()) }
	exprs := []func() string{
		func() string { return fmt.Sprintf("%s, %s::text", h(), h()) },
		func() string { return fmt.Sprintf("%s -> %s, %s -> %s", h(), key(), h(), keys()) },
		func() string {
			return fmt.Sprintf("%s ? %s, %s ?| %s, %s ?& %s, defined(%s, %s)", h(), key(), h(), keys(), h(), keys(), h(), key())
		},
		func() string { return fmt.Sprintf("%s - %s, %s - %s, %s - %s", h(), key(), h(), keys(), h(), h()) },
		func() string { return fmt.Sprintf("%s || %s, %s @> %s, %s <@ %s", h(), h(), h(), h(), h(), h()) },
		func() string {
			return fmt.Sprintf("akeys(%s), avals(%s), %%%% %s, %%# %s, slice(%s, %s)", h(), h(), h(), h(), h(), keys())
		},
		func() string {
			return fmt.Sprintf("hstore_to_json(%s), hstore_to_jsonb(%s), hstore_to_json_loose(%s)", h(), h(), h())
		},
		func() string {
			return fmt.Sprintf("%s = %s, hstore(%s, %s), hstore(%s, %s)", h(), h(), keys(), keys(), key(), key())
		},
		func() string {
			return fmt.Sprintf("x FROM (VALUES (%s), (%s), (%s), (%s)) v(x) ORDER BY x", h(), h(), h(), h())
		},
		func() string { return fmt.Sprintf("skeys(%s), svals(%s), each(%s)", h(), h(), h()) },
		func() string { return fmt.Sprintf("* FROM each(%s) WITH ORDINALITY", h()) },
		func() string {
			return fmt.Sprintf("tconvert(%s, %s), hstore(ROW(%s, %s)), populate_record(NULL::hkv, %s), ROW(%s, %s)::hkv #= %s",
				key(), key(), key(), h(), h(), key(), key(), h())
		},
	}
	for range 800 {
		q := "SELECT " + exprs[r.IntN(len(exprs))]()
		got, gotErr := run(q)
		want, wantErr := runPG(q)
		if gotErr != wantErr {
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", q, gotErr, wantErr)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", q, show(got), show(want))
		}
	}

	setup := `CREATE TABLE hs (id int PRIMARY KEY, g int, h hstore);
CREATE MATERIALIZED VIEW hs_ops AS SELECT id, h -> 'a' AS a, h ? 'b' AS hb, h - 'a'::text AS ha, akeys(h) AS ks, hstore_to_jsonb(h) AS j FROM hs;
CREATE MATERIALIZED VIEW hs_group AS SELECT h, count(*) AS c, sum(g) AS s FROM hs GROUP BY h;
CREATE MATERIALIZED VIEW hs_distinct AS SELECT DISTINCT h - ARRAY['a'] AS h FROM hs;
CREATE MATERIALIZED VIEW hs_join AS SELECT x.id AS x, y.id AS y FROM hs x JOIN hs y ON x.h = y.h AND x.id <> y.id;
CREATE MATERIALIZED VIEW hs_filter AS SELECT id, h FROM hs WHERE h @> 'a=>1' OR h ? 'b a';
CREATE MATERIALIZED VIEW hs_top AS SELECT id, h FROM hs ORDER BY h, id LIMIT 3;
CREATE MATERIALIZED VIEW hs_each AS SELECT id, e.key, e.value FROM hs, each(hs.h) e WHERE e.key <> 'a';
CREATE MATERIALIZED VIEW hs_keys AS SELECT k, count(*) AS c FROM hs, skeys(h) k GROUP BY k;
CREATE MATERIALIZED VIEW hs_vals AS SELECT id, svals(h) AS v, exist(h, 'a') AS ea, defined(h, 'b') AS db, hstore(ROW(id, g)) AS r FROM hs`
	setupBoth(t, run, runPG, setup)
	views := []string{"hs_ops", "hs_group", "hs_distinct", "hs_join", "hs_filter", "hs_top", "hs_each", "hs_keys", "hs_vals"}
	ok := func() string {
		for {
			s := h()
			if _, code := runPG("SELECT " + s); code == "" {
				return s
			}
		}
	}
	var ids []int
	next := 1
	for range 120 {
		var stmt string
		switch {
		case len(ids) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM hs WHERE id = %d", ids[k])
			ids = slices.Delete(ids, k, k+1)
		case len(ids) > 0 && r.IntN(4) == 0:
			v := key()
			if r.IntN(4) == 0 {
				v = "NULL"
			}
			stmt = fmt.Sprintf("UPDATE hs SET h[%s] = %s WHERE id = %d", key(), v, ids[r.IntN(len(ids))])
		case len(ids) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE hs SET h = %s, g = %d WHERE id = %d", ok(), r.IntN(3), ids[r.IntN(len(ids))])
		default:
			stmt = fmt.Sprintf("INSERT INTO hs VALUES (%d, %d, %s)", next, r.IntN(3), ok())
			ids = append(ids, next)
			next++
		}
		applyBoth(t, e, run, runPG, stmt, views)
	}
}
