package engine_test

import (
	"flag"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

var regexRandomN = flag.Int("regex-random", 600, "queries of TestRegexRandom")

// TestRegexRandom compares regexp_match, regexp_matches(…, 'g') and
// regexp_replace(…, 'g') on random small patterns (back-references,
// lookahead and lookbehind, word constraints, greedy and non-greedy
// quantifiers mixed, alternation, bounds) and short strings with
// PostgreSQL, errors included.
func TestRegexRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 23)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	g := &regexGen{r: r}
	subject := func() string {
		var sb strings.Builder
		for range r.IntN(9) {
			sb.WriteByte("aabbc -\nA"[r.IntN(9)])
		}
		return sb.String()
	}
	flags := []string{"", "", "", "i", "x", "n", "p", "w"}
	exprs := []func() string{
		func() string {
			return "regexp_match('" + subject() + "', " + g.pattern() + ", '" + flags[r.IntN(len(flags))] + "')"
		},
		func() string {
			return "regexp_matches('" + subject() + "', " + g.pattern() + ", 'g" + flags[r.IntN(len(flags))] + "')"
		},
		func() string {
			return "regexp_replace('" + subject() + "', " + g.pattern() + ", '<\\1\\&>', 'g" + flags[r.IntN(len(flags))] + "')"
		},
		func() string {
			return "regexp_substr('" + subject() + "', " + g.pattern() + ", " + strconv.Itoa(1+r.IntN(4)) + ")"
		},
		func() string {
			return "regexp_split_to_array('" + subject() + "', " + g.pattern() + ")"
		},
		func() string {
			return "'" + subject() + "' ~ " + g.pattern()
		},
	}
	n := *regexRandomN
	if testing.Short() {
		n /= 10
	}
	// PostgreSQL refuses some patterns its compiler finds too big
	// (2201B "regular expression is too complex"), a limit of its
	// automata that a backtracking matcher does not share: those are
	// left out.
	tooBig := func(q string) bool {
		_, err := pg.PgConn().Exec(ctx, q).ReadAll()
		return err != nil && strings.Contains(err.Error(), "too complex")
	}
	for range n {
		q := "SELECT " + exprs[r.IntN(len(exprs))]()
		if tooBig(q) {
			continue
		}
		compareAdHoc(t, 1, []func() string{func() string { return q[len("SELECT "):] }}, r, run, runPG)
	}
}

// regexGen writes random advanced regular expressions over a, b and c.
type regexGen struct {
	r      *rand.Rand
	opened int
	closed []int
	depth  int
	// simple: greedy quantifiers only, no alternation, no
	// back-references or lookaround (the patterns whose
	// subexpressions RE2 finds).
	simple bool
}

func (g *regexGen) pattern() string {
	g.opened, g.closed, g.depth, g.simple = 0, nil, 0, g.r.IntN(4) == 0
	return "'" + g.alt(false) + "'"
}

func (g *regexGen) alt(inLook bool) string {
	s := g.branch(inLook)
	for !g.simple && g.r.IntN(4) == 0 {
		s += "|" + g.branch(inLook)
	}
	return s
}

func (g *regexGen) branch(inLook bool) string {
	var sb strings.Builder
	for range 1 + g.r.IntN(3) {
		sb.WriteString(g.piece(inLook))
	}
	return sb.String()
}

func (g *regexGen) piece(inLook bool) string {
	r := g.r
	g.depth++
	defer func() { g.depth-- }()
	switch k := r.IntN(20); {
	case g.simple && k < 6:
	case k < 2 && g.depth < 3 && !inLook:
		switch r.IntN(4) {
		case 0:
			return "(?=" + g.alt(true) + ")"
		case 1:
			return "(?!" + g.alt(true) + ")"
		case 2:
			return "(?<=" + g.alt(true) + ")"
		default:
			return "(?<!" + g.alt(true) + ")"
		}
	case k < 4:
		return []string{`\m`, `\M`, `\y`, `\Y`, "^", "$"}[r.IntN(6)]
	case k < 6 && len(g.closed) > 0 && !inLook:
		return `\` + strconv.Itoa(g.closed[r.IntN(len(g.closed))]) + g.quant()
	}
	var atom string
	switch k := r.IntN(10); {
	case k < 3 && g.depth < 4:
		if inLook || r.IntN(4) == 0 {
			atom = "(?:" + g.alt(inLook) + ")"
		} else {
			g.opened++
			n := g.opened
			atom = "(" + g.alt(inLook) + ")"
			g.closed = append(g.closed, n)
		}
	case k < 4:
		atom = []string{".", "[ab]", "[^a]", `\w`, `\s`, "[[:alpha:]]", `\D`, `[^[:lower:]]`, "[a-c]", `\W`}[r.IntN(10)]
	default:
		atom = string("abc"[r.IntN(3)])
	}
	return atom + g.quant()
}

func (g *regexGen) quant() string {
	r := g.r
	if r.IntN(2) == 0 {
		return ""
	}
	q := []string{"*", "+", "?", "{0,2}", "{1,3}", "{2}", "{1,}"}[r.IntN(7)]
	if !g.simple && r.IntN(3) == 0 {
		q += "?"
	}
	return q
}
