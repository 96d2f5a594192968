package engine_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// dtTemplateGen builds random .datetime(template) templates and texts
// that mostly fit them: each pattern with a value of its width (or
// another), separators as written (or another), sometimes a character
// dropped or trailing text added.
type dtTemplateGen struct{ r *rand.Rand }

// dtPiece is a template pattern and a generator of text for it.
type dtPiece struct {
	pat  string
	text func(r *rand.Rand) string
}

func dtNum(lo, hi, width int) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		n := lo + r.IntN(hi-lo+1)
		switch r.IntN(8) {
		case 0:
			return fmt.Sprint(n) // no padding
		case 1:
			return fmt.Sprint(hi + 1 + r.IntN(50)) // out of range
		}
		return fmt.Sprintf("%0*d", width, n)
	}
}

func dtWord(words ...string) func(r *rand.Rand) string {
	return func(r *rand.Rand) string { return words[r.IntN(len(words))] }
}

var dtPieces = []dtPiece{
	{"YYYY", dtNum(1, 2100, 4)}, {"YY", dtNum(0, 99, 2)}, {"Y", dtNum(0, 9, 1)}, {"YYY", dtNum(0, 999, 3)},
	{"Y,YYY", dtWord("2,020", "1,999", "12,345", "2020")}, {"CC", dtNum(1, 21, 2)}, {"IYYY", dtNum(1990, 2030, 4)},
	{"MM", dtNum(1, 12, 2)}, {"Mon", dtWord("Jan", "feb", "MAR", "Dec", "Foo")}, {"Month", dtWord("January", "march", "DECEMBER", "Jun")},
	{"RM", dtWord("XII", "iv", "ix", "V", "X")}, {"DD", dtNum(1, 31, 2)}, {"DDD", dtNum(1, 366, 3)}, {"IDDD", dtNum(1, 371, 3)},
	{"D", dtNum(1, 7, 1)}, {"ID", dtNum(1, 7, 1)}, {"Dy", dtWord("Mon", "sun", "XYZ")}, {"Day", dtWord("Monday", "friday", "Sun")},
	{"WW", dtNum(1, 53, 2)}, {"IW", dtNum(1, 53, 2)}, {"W", dtNum(1, 5, 1)}, {"J", dtNum(2451545, 2460000, 7)}, {"Q", dtNum(1, 4, 1)},
	{"HH24", dtNum(0, 23, 2)}, {"HH", dtNum(1, 12, 2)}, {"HH12", dtNum(1, 12, 2)}, {"MI", dtNum(0, 59, 2)}, {"SS", dtNum(0, 59, 2)},
	{"MS", dtNum(0, 999, 3)}, {"US", dtNum(0, 999999, 6)}, {"FF1", dtNum(0, 9, 1)}, {"FF3", dtNum(0, 999, 3)}, {"FF6", dtNum(0, 999999, 6)},
	{"SSSS", dtNum(0, 86399, 5)}, {"AM", dtWord("AM", "pm", "P.M.", "xx")}, {"P.M.", dtWord("a.m.", "P.M.", "PM")},
	{"AD", dtWord("AD", "bc", "B.C.")}, {"TZH", dtWord("+03", "-05", "03", " 4", "+16", "-00")}, {"TZM", dtNum(0, 59, 2)},
	{"FMDD", dtNum(1, 31, 1)}, {"FMMM", dtNum(1, 12, 1)}, {"FMHH24", dtNum(0, 23, 1)}, {"DDth", dtWord("1st", "02nd", "23rd", "4")},
	{"FX", dtWord("")}, {"SSSSS", dtNum(0, 86399, 5)}, {"TZH:TZM", dtWord("+05:30", "-03:00", "+1:2", "05:45")}, {"IY", dtNum(0, 99, 2)},
	{"FF2", dtNum(0, 99, 2)}, {"FF5", dtNum(0, 99999, 5)}, {"DDTH", dtWord("01ST", "2nd", "11TH")}, {"FMYYYY", dtNum(-50, 3000, 1)},
	{"Dy", dtWord("Tue", "tue ")}, {"A.D.", dtWord("A.D.", "b.c.", "AD")}, {"rm", dtWord("i", "XI", "xii")}, {"I", dtNum(0, 9, 1)},
	{"yyyy", dtNum(1, 2100, 4)}, {"mm", dtNum(1, 12, 2)}, {"dd", dtNum(1, 31, 2)}, {"hh24", dtNum(0, 23, 2)}, {"mi", dtNum(0, 59, 2)},
}

var dtSeps = []string{"-", ":", ".", "/", " ", ",", ";", "'", `\"T\"`, `\"at\"`, `\"é\"`, "  ", ""}

func (g dtTemplateGen) pair() (template, text string) {
	r := g.r
	var tb, sb strings.Builder
	for i, n := 0, 1+r.IntN(5); i < n; i++ {
		if i > 0 {
			sep := dtSeps[r.IntN(len(dtSeps))]
			tb.WriteString(sep)
			lit := strings.ReplaceAll(strings.ReplaceAll(sep, `\"`, ""), `"`, "")
			switch r.IntN(10) {
			case 0:
				lit = dtSeps[r.IntN(len(dtSeps)-3)]
			case 1:
				lit = strings.ToLower(lit)
			}
			sb.WriteString(lit)
		}
		p := dtPieces[r.IntN(len(dtPieces))]
		tb.WriteString(p.pat)
		sb.WriteString(p.text(r))
	}
	template, text = tb.String(), sb.String()
	switch r.IntN(12) {
	case 0:
		template += string("XT*T"[r.IntN(4)])
	case 1:
		text += g.pick(" ", "x", "0", "  ")
	case 2:
		if len(text) > 0 {
			text = text[:len(text)-1]
		}
	case 3:
		text = " " + text
	case 4, 5:
		if len(text) > 0 {
			k := r.IntN(len(text))
			text = text[:k] + g.pick(" ", "-", "1", "a", "+", "") + text[k+1:]
		}
	}
	return template, text
}

func (g dtTemplateGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// TestJSONPathDatetimeRandom compares .datetime(template) with
// PostgreSQL over random templates and texts: the datetime found (its
// text and type), or the error's SQLSTATE and message, in lax and strict
// mode, silent or not, and with the _tz functions.
func TestJSONPathDatetimeRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 47)
	g := dtTemplateGen{r}
	e := engine.New()
	run, runPG := dtRunners(t, ctx, pg, e)
	n := 600
	if testing.Short() {
		n = 150
	}
	for range n {
		template, text := g.pair()
		path := fmt.Sprintf(`%s$.datetime("%s")`, g.pick("", "strict ", "lax "), template)
		doc := fmt.Sprintf("%q", text)
		if r.IntN(5) == 0 {
			doc = fmt.Sprintf("[%q, %q]", text, "2020-01-01")
			path = strings.Replace(path, "$.", "$[*].", 1)
		}
		fn := g.pick("jsonb_path_query_array", "jsonb_path_query_array_tz")
		q := fmt.Sprintf("SELECT %s(%s, %s%s), %s(%s, %s, silent => true)", fn, sqlQuote(doc), sqlQuote(path), g.pick("", ", silent => true"),
			fn, sqlQuote(doc), sqlQuote(path+".type()"))
		got, gotErr := run(q)
		want, wantErr := runPG(q)
		if gotErr != wantErr {
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q (%v)", q, gotErr, wantErr, want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", q, show(got), show(want))
		}
	}
}

// dtRunners are scriptRunners whose errors are "SQLSTATE message".
func dtRunners(t *testing.T, ctx context.Context, pg *pgx.Conn, e *engine.Engine) (run, runPG func(string) ([]string, string)) {
	sess := e.NewSession()
	t.Cleanup(func() { sess.Close() })
	msg := func(err error) string {
		if pe, ok := errors.AsType[*pgconn.PgError](err); ok {
			return pe.Code + " " + pe.Message + " | " + pe.Detail + " | " + pe.Hint
		}
		pe := pgerr.Wrap(err)
		return pe.Code + " " + pe.Message + " | " + pe.Detail + " | " + pe.Hint
	}
	run = func(sql string) ([]string, string) {
		var rows []value.Row
		err := sess.ExecScript(sql, func(res engine.Result) error {
			if res.HasRows {
				rows = res.Rows
			}
			return nil
		})
		if err != nil {
			return nil, msg(err)
		}
		return rowTexts(rows), ""
	}
	runPG = func(sql string) ([]string, string) {
		rs, err := pg.PgConn().Exec(ctx, sql).ReadAll()
		if err != nil {
			return nil, msg(err)
		}
		return pgTexts(pgRows(rs[len(rs)-1])), ""
	}
	return run, runPG
}

// TestJSONPathDatetimeISORandom compares .datetime() without a template
// with PostgreSQL over random texts near the ISO 8601 forms it reads.
func TestJSONPathDatetimeISORandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 59)
	g := dtTemplateGen{r}
	e := engine.New()
	run, runPG := dtRunners(t, ctx, pg, e)
	n := 600
	if testing.Short() {
		n = 150
	}
	num := func(width int) string {
		switch r.IntN(6) {
		case 0:
			return fmt.Sprint(r.IntN(100))
		case 1:
			return fmt.Sprint(r.IntN(100000))
		}
		return fmt.Sprintf("%0*d", width, r.IntN(int(pow10(width))))
	}
	for range n {
		var b strings.Builder
		date := r.IntN(3) != 0
		if date {
			b.WriteString(num(4) + "-" + num(2) + "-" + num(2))
		}
		if !date || r.IntN(2) == 0 {
			if date {
				b.WriteString(g.pick(" ", "T", "t", "  ", ""))
			}
			b.WriteString(num(2) + ":" + num(2))
			if r.IntN(5) != 0 {
				b.WriteString(":" + num(2))
			}
			if r.IntN(3) == 0 {
				b.WriteString("." + num(1+r.IntN(7)))
			}
			if r.IntN(2) == 0 {
				b.WriteString(g.pick("+", "-", " +", "Z", "") + num(2))
				if r.IntN(2) == 0 {
					b.WriteString(":" + num(2))
				}
			}
		}
		text := b.String()
		switch r.IntN(8) {
		case 0:
			text = " " + text
		case 1:
			text += g.pick(" ", "x", ":00")
		}
		q := fmt.Sprintf("SELECT jsonb_path_query_array_tz(%s, '$.datetime()'), jsonb_path_query_array(%s, '$.datetime().type()', silent => true)",
			sqlQuote(fmt.Sprintf("%q", text)), sqlQuote(fmt.Sprintf("%q", text)))
		got, gotErr := run(q)
		want, wantErr := runPG(q)
		if gotErr != wantErr {
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q (%v)", q, gotErr, wantErr, want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", q, show(got), show(want))
		}
	}
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}
