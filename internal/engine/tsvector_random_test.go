package engine_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestTSVectorRandom compares with PostgreSQL to_tsvector of generated
// texts, the tsquery builders on generated queries and sentences, @@ and
// ts_rank (plain and normalized, weighted) of their pairs, and the input
// and output of generated tsvector and tsquery literals, ts_rank_cd and ts_headline, reporting how
// many agree; every one must.
func TestTSVectorRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 67)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	n := *tsearchRandomN / 4
	if testing.Short() {
		n /= 10
	}
	rows := make([]string, n)
	for i := range rows {
		doc := tsSentence(r) + " " + tsSentence(r)
		var q string
		if fs := strings.Fields(doc); r.IntN(3) > 0 && len(fs) > 0 {
			q = tsQueryText(r, fs, 3)
		} else {
			q = tsQueryText(r, append(strings.Fields(tsSentence(r)), "the"), 3)
		}
		rows[i] = strconv.Itoa(i) + ", " + tsLiteral(doc) + ", " + tsLiteral(q) + ", " + tsLiteral(tsSentence(r)) +
			", " + tsLiteral(tsVectorText(r)) + ", " + tsLiteral(tsQueryText(r, []string{"a", "b", "c", "ab", "abc", "it's", `x\y`}, 3))
	}
	setupBoth(t, run, runPG, "CREATE TABLE tq (id int PRIMARY KEY, d text, q text, s text, v text, lq text)")
	for lo := 0; lo < n; lo += 200 {
		var sb strings.Builder
		sb.WriteString("INSERT INTO tq VALUES ")
		for i := lo; i < min(lo+200, n); i++ {
			if i > lo {
				sb.WriteString(", ")
			}
			sb.WriteString("(" + rows[i] + ")")
		}
		if _, code := run(sb.String()); code != "" {
			t.Fatalf("insert: %s", code)
		}
		if _, code := runPG(sb.String()); code != "" {
			t.Fatalf("insert in PostgreSQL: %s", code)
		}
	}
	compare := func(what, q string) {
		got, code := run(q)
		want, pgCode := runPG(q)
		if code != "" || pgCode != "" {
			t.Fatalf("%s: SQLSTATE %q, PostgreSQL %q", q, code, pgCode)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, PostgreSQL %d", what, len(got), len(want))
		}
		bad := 0
		for i := range want {
			if got[i] != want[i] {
				if bad++; bad <= 5 {
					t.Errorf("%s:\n got: %q\nwant: %q", what, got[i], want[i])
					id, _, _ := strings.Cut(want[i], "\x00|")
					if k, err := strconv.Atoi(id); err == nil && k < len(rows) {
						t.Logf("row %s", rows[k])
					}
				}
			}
		}
		t.Logf("%s: %d of %d agree with PostgreSQL", what, len(want)-bad, len(want))
	}
	compare("to_tsvector", "SELECT id, to_tsvector('english', d), to_tsvector('simple', s) FROM tq ORDER BY id")
	compare("to_tsquery", "SELECT id, to_tsquery('english', q), to_tsquery('simple', q) FROM tq ORDER BY id")
	compare("plainto, phraseto, websearch", "SELECT id, plainto_tsquery('english', s), phraseto_tsquery('english', s), websearch_to_tsquery('english', s), websearch_to_tsquery('english', q) FROM tq ORDER BY id")
	compare("@@", "SELECT id, to_tsvector('english', d) @@ to_tsquery('english', q), strip(to_tsvector('english', d)) @@ to_tsquery('english', q), to_tsvector('english', d) @@ plainto_tsquery('english', s) FROM tq ORDER BY id")
	compare("ts_rank", "SELECT id, ts_rank(to_tsvector('english', d), to_tsquery('english', q)), ts_rank(setweight(to_tsvector('english', s), 'B') || to_tsvector('english', d), to_tsquery('english', q), 1|4|8|32), ts_rank('{0.05,0.3,0.5,0.9}', strip(to_tsvector('english', d)), to_tsquery('english', q), 2|16) FROM tq ORDER BY id")
	compare("ts_rank_cd", "SELECT id, ts_rank_cd(to_tsvector('english', d), to_tsquery('english', q)), ts_rank_cd(setweight(to_tsvector('english', s), 'B') || to_tsvector('english', d), to_tsquery('english', q), 1|4|8|32), ts_rank_cd('{0.05,0.3,0.5,0.9}', to_tsvector('english', d) || strip(to_tsvector('english', s)), to_tsquery('english', q), 2|4|16), ts_rank_cd(v::tsvector, lq::tsquery, 4) FROM tq ORDER BY id")
	compare("tsvector literals", "SELECT id, v::tsvector, length(v::tsvector), strip(v::tsvector), v::tsvector @@ lq::tsquery, ts_rank(v::tsvector, lq::tsquery) FROM tq ORDER BY id")
	compare("tsquery literals", "SELECT id, lq::tsquery, numnode(lq::tsquery), querytree(lq::tsquery) FROM tq ORDER BY id")
	compare("ts_rewrite", "SELECT id, ts_rewrite(lq::tsquery, 'a', 'x & y'), ts_rewrite(lq::tsquery, 'a & b', 'c'), ts_rewrite(lq::tsquery, 'b | c', ''), "+
		"ts_rewrite(lq::tsquery, 'a <-> b', 'z | ab'), ts_rewrite(lq::tsquery, '!c', 'abc'), ts_rewrite(to_tsquery('english', q), plainto_tsquery('english', s), 'w') FROM tq ORDER BY id")
	compare("ts_rewrite by other queries", "SELECT a.id, ts_rewrite(a.lq::tsquery, b.lq::tsquery, c.lq::tsquery), ts_rewrite(a.lq::tsquery, querytree(b.lq::tsquery)::tsquery, 'z') "+
		"FROM tq a JOIN tq b ON b.id = (a.id * 7 + 1) % "+strconv.Itoa(n)+" JOIN tq c ON c.id = (a.id + 3) % "+strconv.Itoa(n)+" ORDER BY a.id")
	compare("ts_headline", "SELECT id, ts_headline('english', d, to_tsquery('english', q)), "+
		"ts_headline('english', d || ' ' || s || ' ' || d, to_tsquery('english', q), 'MaxWords=7, MinWords=3, ShortWord=2'), "+
		"ts_headline('english', s || ' ' || d || ' ' || s || ' ' || d, to_tsquery('english', q), 'MaxFragments=2, MaxWords=5, MinWords=1'), "+
		"ts_headline('simple', d, to_tsquery('simple', q), 'HighlightAll=1'), ts_headline('english', s, plainto_tsquery('english', d), 'MaxFragments=3, MaxWords=4, MinWords=2, ShortWord=0') FROM tq ORDER BY id")
	compare("order", "SELECT v::tsvector, id FROM tq ORDER BY 1, 2")
	compare("order of queries", "SELECT lq::tsquery, id FROM tq ORDER BY 1, 2")
}

// tsQueryText is a tsquery in to_tsquery's syntax over words: operands
// with weights and prefix marks, !, &, |, <-> and <N>, parentheses.
func tsQueryText(r *rand.Rand, words []string, depth int) string {
	if depth == 0 || r.IntN(3) == 0 {
		w := words[r.IntN(len(words))]
		w = strings.Map(func(c rune) rune {
			if strings.ContainsRune("&|!()<>:*\"\\", c) {
				return -1
			}
			return c
		}, w)
		if strings.TrimSpace(w) == "" {
			w = "x"
		}
		w = "'" + strings.ReplaceAll(w, "'", "''") + "'"
		switch r.IntN(6) {
		case 0:
			w += ":*"
		case 1:
			w += ":" + []string{"A", "B", "AC", "D", "*B"}[r.IntN(5)]
		}
		return w
	}
	switch r.IntN(7) {
	case 0:
		return "!" + tsQueryText(r, words, depth-1)
	case 1:
		return "(" + tsQueryText(r, words, depth-1) + ")"
	}
	op := []string{" & ", " | ", " <-> ", " <2> ", "<->", " & ", " <0> "}[r.IntN(7)]
	return tsQueryText(r, words, depth-1) + op + tsQueryText(r, words, depth-1)
}

// tsVectorText is a tsvector literal: a few short lexemes, some quoted,
// with positions and weights, some repeated.
func tsVectorText(r *rand.Rand) string {
	var sb strings.Builder
	for i := range r.IntN(6) {
		if i > 0 {
			sb.WriteString(" ")
		}
		w := []string{"a", "b", "c", "ab", "abc", "b", "x y", "it's", `x\y`}[r.IntN(9)]
		if strings.ContainsAny(w, ` '\`) || r.IntN(4) == 0 {
			w = "'" + strings.NewReplacer("'", "''", `\`, `\\`).Replace(w) + "'"
		}
		sb.WriteString(w)
		if r.IntN(3) > 0 {
			for j := range 1 + r.IntN(3) {
				if j == 0 {
					sb.WriteString(":")
				} else {
					sb.WriteString(",")
				}
				sb.WriteString(strconv.Itoa(1 + r.IntN(12)))
				if r.IntN(3) == 0 {
					sb.WriteByte("ABCD"[r.IntN(4)])
				}
			}
		}
	}
	return sb.String()
}
