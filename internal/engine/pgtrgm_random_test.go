package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// trgmString is a random string of words made of ASCII letters (either
// case) and digits, separated by blanks, punctuation and non-ASCII
// letters, as a SQL literal: the characters whose handling decides
// pg_trgm's trigrams.
func trgmString(r *rand.Rand) string {
	parts := []string{"a", "b", "c", "A", "B", "d", "1", "2", "ab", "ba", "cab", "word", "Word", "wor", " ", " ", "  ",
		"-", "_", ",", ".", "'", "é", "Ö", "ж", "€", "中", "aé", "éa"}
	var b strings.Builder
	for n := r.IntN(12); n > 0; n-- {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return "'" + strings.ReplaceAll(b.String(), "'", "''") + "'"
}

// TestRandomPgTrgm compares pg_trgm's functions and operators with
// PostgreSQL's on random strings, ad hoc under random thresholds, then in
// views over random rows.
func TestRandomPgTrgm(t *testing.T) {
	pg, ctx, r := randomPG(t, 0x7467)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setupBoth(t, run, runPG, "CREATE EXTENSION pg_trgm")
	s := func() string { return trgmString(r) }
	exprs := []func() string{
		func() string { return fmt.Sprintf("show_trgm(%s)", s()) },
		func() string { return fmt.Sprintf("similarity(%s, %s), %[1]s <-> %[2]s", s(), s()) },
		func() string {
			return fmt.Sprintf("word_similarity(%s, %s), %[1]s <<-> %[2]s, %[2]s <->> %[1]s", s(), s())
		},
		func() string {
			return fmt.Sprintf("strict_word_similarity(%s, %s), %[1]s <<<-> %[2]s, %[2]s <->>> %[1]s", s(), s())
		},
		func() string {
			return fmt.Sprintf("%s %% %s, %[1]s <%% %[2]s, %[2]s %%> %[1]s, %[1]s <<%% %[2]s, %[2]s %%>> %[1]s", s(), s())
		},
		func() string {
			return fmt.Sprintf("word_similarity(a, b), strict_word_similarity(a, b) FROM (VALUES (%s || %s, %s || ' ' || %s)) v(a, b)", s(), s(), s(), s())
		},
	}
	thresholds := []string{"0", "0.1", "0.25", "0.3", "1/3", "0.5", "0.6", "0.75", "1"}
	for i := range 1000 {
		if i%50 == 0 {
			for _, g := range []string{"similarity_threshold", "word_similarity_threshold", "strict_word_similarity_threshold"} {
				th := thresholds[r.IntN(len(thresholds))]
				if th == "1/3" {
					th = "0.33333334"
				}
				stmt := fmt.Sprintf("SET pg_trgm.%s = %s", g, th)
				if _, code := run(stmt); code != "" {
					t.Fatalf("%s: %s", stmt, code)
				}
				if _, code := runPG(stmt); code != "" {
					t.Fatalf("PostgreSQL: %s: %s", stmt, code)
				}
			}
		}
		q := "SELECT " + exprs[r.IntN(len(exprs))]()
		got, gotErr := run(q)
		want, wantErr := runPG(q)
		if gotErr != "" || wantErr != "" {
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", q, gotErr, wantErr)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", q, show(got), show(want))
		}
	}

	setup := `CREATE TABLE tg (id int PRIMARY KEY, a text, b text);
CREATE MATERIALIZED VIEW tg_sim AS SELECT id, show_trgm(a) AS ta, similarity(a, b) AS s, a <-> b AS d, word_similarity(a, b) AS w, b <->> a AS wd, strict_word_similarity(a, b) AS sw FROM tg;
CREATE MATERIALIZED VIEW tg_near AS SELECT id, a FROM tg WHERE similarity(a, 'word cab') >= 0.2;
CREATE MATERIALIZED VIEW tg_group AS SELECT show_trgm(a) AS t, count(*) AS c FROM tg GROUP BY show_trgm(a);
CREATE MATERIALIZED VIEW tg_pairs AS SELECT x.id AS x, y.id AS y, x.a <-> y.a AS d FROM tg x JOIN tg y ON word_similarity(x.a, y.b) > 0.5`
	setupBoth(t, run, runPG, setup)
	views := []string{"tg_sim", "tg_near", "tg_group", "tg_pairs"}
	var ids []int
	next := 1
	for range 120 {
		var stmt string
		switch {
		case len(ids) > 0 && r.IntN(4) == 0:
			k := r.IntN(len(ids))
			stmt = fmt.Sprintf("DELETE FROM tg WHERE id = %d", ids[k])
			ids = slices.Delete(ids, k, k+1)
		case len(ids) > 0 && r.IntN(3) == 0:
			stmt = fmt.Sprintf("UPDATE tg SET a = %s, b = %s WHERE id = %d", s(), s(), ids[r.IntN(len(ids))])
		default:
			stmt = fmt.Sprintf("INSERT INTO tg VALUES (%d, %s, %s)", next, s(), s())
			ids = append(ids, next)
			next++
		}
		applyBoth(t, e, run, runPG, stmt, views)
	}
}
