package engine_test

import (
	"flag"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

var tsearchRandomN = flag.Int("tsearch-random", 4000, "texts, words and matches of TestTextSearchRandom")

// TestTextSearchRandom compares with PostgreSQL the default parser's
// tokens of generated texts (ts_parse), the english_stem lexemes of
// generated words (ts_lexize), and text @@ text on generated pairs,
// reporting how many agree; every one must.
func TestTextSearchRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 61)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	n := *tsearchRandomN
	if testing.Short() {
		n /= 10
	}
	texts := make([]string, n)
	for i := range texts {
		texts[i] = tsText(r)
	}
	words := make([]string, n)
	for i := range words {
		words[i] = tsWord(r)
	}
	pairs := make([]string, n)
	for i := range pairs {
		a, b := tsSentence(r), tsSentence(r)
		if fs := strings.Fields(a); r.IntN(2) == 0 && len(fs) > 0 {
			// Some of a's words, so that about half the pairs match.
			b = fs[r.IntN(len(fs))] + " " + fs[r.IntN(len(fs))]
		}
		pairs[i] = tsLiteral(a) + ", " + tsLiteral(b)
	}
	setupBoth(t, run, runPG, "CREATE TABLE tx (id int PRIMARY KEY, s text);\n"+
		"CREATE TABLE tw (id int PRIMARY KEY, w text);\n"+
		"CREATE TABLE tp (id int PRIMARY KEY, a text, b text)")
	insert := func(table string, vals []string) {
		for lo := 0; lo < len(vals); lo += 500 {
			var sb strings.Builder
			sb.WriteString("INSERT INTO " + table + " VALUES ")
			for i := lo; i < min(lo+500, len(vals)); i++ {
				if i > lo {
					sb.WriteString(", ")
				}
				sb.WriteString("(" + strconv.Itoa(i) + ", " + vals[i] + ")")
			}
			// Not setupBoth: a text may hold ";\n".
			if _, code := run(sb.String()); code != "" {
				t.Fatalf("insert into %s: %s", table, code)
			}
			if _, code := runPG(sb.String()); code != "" {
				t.Fatalf("insert into %s in PostgreSQL: %s", table, code)
			}
		}
	}
	lits := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = tsLiteral(s)
		}
		return out
	}
	insert("tx", lits(texts))
	insert("tw", lits(words))
	insert("tp", pairs)

	// Each comparison yields rows keyed by id first; agreement counts the
	// ids whose rows are the same.
	compare := func(what, q string, inputs []string) {
		got, code := run(q)
		want, pgCode := runPG(q)
		if code != "" || pgCode != "" {
			t.Fatalf("%s: SQLSTATE %q, PostgreSQL %q", q, code, pgCode)
		}
		byID := func(rows []string) map[string][]string {
			m := map[string][]string{}
			for _, row := range rows {
				id, _, _ := strings.Cut(row, "\x00|") // rowTexts' separator
				m[id] = append(m[id], row)
			}
			return m
		}
		g, w := byID(got), byID(want)
		if len(w) == 0 {
			t.Fatalf("%s: no rows", q)
		}
		bad := 0
		for i, in := range inputs {
			id := strconv.Itoa(i)
			if strings.Join(g[id], "\n") != strings.Join(w[id], "\n") {
				if bad++; bad <= 5 {
					t.Errorf("%s of %s:\n got: %q\nwant: %q", what, in, g[id], w[id])
				}
			}
		}
		matched := 0
		for _, row := range want {
			if strings.HasSuffix(row, "\x00|t") {
				matched++
			}
		}
		t.Logf("%s: %d of %d agree with PostgreSQL (%d rows, %d true)", what, len(inputs)-bad, len(inputs), len(want), matched)
	}
	compare("ts_parse", "SELECT id, n, tokid, token FROM tx, ts_parse('default', s) WITH ORDINALITY AS p(tokid, token, n) ORDER BY id, n", texts)
	compare("ts_lexize", "SELECT id, ts_lexize('english_stem', w), ts_lexize('simple', w) FROM tw ORDER BY id", words)
	compare("text @@ text", "SELECT id, a @@ b FROM tp ORDER BY id", pairs)
	setupBoth(t, run, runPG, "SET default_text_search_config = simple")
	compare("text @@ text (simple)", "SELECT id, a @@ b FROM tp ORDER BY id", pairs)
}

func tsLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// tsFragments are pieces of text the parser reads in many ways: protocols,
// hosts, ports, paths, tags and comments, entities, numbers, signs,
// hyphens, non-ASCII letters.
var tsFragments = []string{"http://", "https://", "ftp://", "www.", ".com", ".org", "<script>", "</script>",
	"<style>", "</style>", "&amp;", "&#123;", "&#x1F;", "<!--", "-->", "<?xml", "<!DOCTYPE", "<br/>",
	`<a href="x">`, "</a>", "e10", "E-5", "@", "..", "./", "../", "~/", "/usr/", "-", "--", ":8080", "foo",
	"bar", "Baz", "The", "running", "é", "ü", "Ж", "中", "ß", "1.2", "3", "x1", "a_b", "'", `"`, `\`, " ",
	"  ", "\n", "\t", ".", "/", "+", "#", ";", "=", "%", "?", "!", ":", "<", ">", "&", "_", "~", ",", "(",
	")", "a@b.c", "x.y.z", "x-1", "1-x", "-1.5.6", "+2", "3.4e+5", "1.e5", ":80/", "/path/to.file",
	`<p class='a\'b'>`, "<x:y>", "<_a>", "</b >", "<!-- a -- b -->", "&:x;", "&#xZ;", "&a.b-c;",
	"user.name@host-1.org", "a_b@c.de", "www.x.com:8080/a?b=c#d", "é-a", "a-é", "1a-2b", "a-1-b"}

const tsChars = "abcdefxyzABEXZ0123456789.-_@:/~&#;<>!?'\"=% +\n\téüЖ中,()"

// tsText is a random run of fragments and characters.
func tsText(r *rand.Rand) string {
	var sb strings.Builder
	chars := []rune(tsChars)
	for range 1 + r.IntN(25) {
		if r.IntN(2) == 0 {
			sb.WriteString(tsFragments[r.IntN(len(tsFragments))])
		} else {
			sb.WriteRune(chars[r.IntN(len(chars))])
		}
	}
	return sb.String()
}

// tsStems and tsSuffixes make words that reach every step of the stemmer
// and its exceptions.
var (
	tsStems = strings.Fields(`gener commun arsen hop run fly cry tie a be cat ski sky univers organ past
		emerg later bias news yell say happy ex ox in out can her ear proc succ st y yy ay aye ba cr ty
		nation relat condit sens valu electr adjust depend formal hope agre feed bled plaster motor
		sing fil troubl siz tann fail fizz gentl earl onl ugl idl dy ly andes atlas cosmos howe`)
	tsSuffixes = strings.Fields(`s es ies ied ing ingly ed edly eed eedly ly li ness ful fulness ation
		ational tional ization izer ator alism aliti alli ousli ousness iveness iviti biliti bli logi fulli
		lessli alize icate iciti ical ative al ance ence er ic able ible ant ement ment ent ism ate iti ous
		ive ize ion sion tion e ll y ay oy 's ' sses us ss at bl iz bb dd tt ogi enci anci abli entli`)
)

// tsWord is a stem and suffixes, or random letters, sometimes capitalised.
func tsWord(r *rand.Rand) string {
	var w string
	if r.IntN(4) == 0 {
		var sb strings.Builder
		for range 1 + r.IntN(9) {
			sb.WriteByte("aeiouybcdlmnrstywx"[r.IntN(18)])
		}
		w = sb.String()
	} else {
		w = tsStems[r.IntN(len(tsStems))]
		for range 1 + r.IntN(3) {
			w += tsSuffixes[r.IntN(len(tsSuffixes))]
		}
	}
	if r.IntN(8) == 0 {
		w = strings.ToUpper(w[:1]) + w[1:]
	}
	return w
}

// tsSentence is a few words, stop words, numbers and hyphenated words.
func tsSentence(r *rand.Rand) string {
	pieces := []func() string{
		func() string { return tsWord(r) },
		func() string { return []string{"the", "a", "and", "of", "is", "not", "The"}[r.IntN(7)] },
		func() string { return strconv.Itoa(r.IntN(100)) },
		func() string { return tsWord(r) + "-" + tsWord(r) },
		func() string { return tsFragments[r.IntN(len(tsFragments))] },
	}
	var sb strings.Builder
	for i := range 1 + r.IntN(6) {
		if i > 0 {
			sb.WriteString(" ")
		}
		sb.WriteString(pieces[r.IntN(len(pieces))]())
	}
	return sb.String()
}
