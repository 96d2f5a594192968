package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestToTimestampRandom compares to_timestamp(text, template) and
// to_date(text, template) with PostgreSQL over random templates and
// texts: the value, or the error's SQLSTATE and message.
func TestToTimestampRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 53)
	g := dtTemplateGen{r}
	e := engine.New()
	run, runPG := dtRunners(t, ctx, pg, e)
	n := 600
	if testing.Short() {
		n = 150
	}
	bad := 0
	for range n {
		template, text := g.pair()
		template = strings.ReplaceAll(template, `\"`, `"`)
		q := fmt.Sprintf("SELECT to_timestamp(%s, %s)::text", sqlQuote(text), sqlQuote(template))
		if r.IntN(2) == 0 {
			q = fmt.Sprintf("SELECT to_date(%s, %s)::text", sqlQuote(text), sqlQuote(template))
		}
		got, gotErr := run(q)
		want, wantErr := runPG(q)
		if gotErr != wantErr {
			t.Errorf("%s: deltaview fails with %q, PostgreSQL with %q (%v)", q, gotErr, wantErr, want)
			bad++
		} else if !slices.Equal(got, want) {
			t.Errorf("%s:\ndeltaview %s\nPostgreSQL %s", q, show(got), show(want))
			bad++
		}
		if bad > 30 {
			t.FailNow()
		}
	}
}
