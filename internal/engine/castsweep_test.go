package engine_test

import (
	"sort"
	"strings"
	"testing"
)

// TestCastSweep casts the samples of TestFunctionSweep's types to every
// type PostgreSQL's catalog (pg_cast) casts them to, and each type to
// and from text, in deltaview and PostgreSQL, by default and again under
// the session settings of TestFunctionSweepSettings.
func TestCastSweep(t *testing.T) {
	run, runPG := styledRunners(t, 43)
	casts, code := runPG(`SELECT format_type(castsource, NULL), format_type(casttarget, NULL) FROM pg_cast ORDER BY 1, 2`)
	if code != "" {
		t.Fatalf("reading pg_cast: %s", code)
	}
	pairs := map[[2]string]bool{}
	for _, row := range casts {
		f := strings.Split(row, "\x00|")
		if sweepSupported(f[0], false) && sweepSupported(f[1], false) {
			pairs[[2]string{f[0], f[1]}] = true
		}
	}
	for typ := range sweepTypes {
		pairs[[2]string{"text", typ}] = true
		pairs[[2]string{typ, "text"}] = true
		pairs[[2]string{typ + "[]", "text"}] = true
	}
	var sigs []*sweepSig
	for p := range pairs {
		s := &sweepSig{key: "cast " + p[0] + " AS " + p[1], values: true}
		for i := range 3 {
			v := sweepValue(p[0], i)
			if p[0] == "text" {
				// text to typ: the target's sample written as text
				v = "CAST(" + sweepValue(p[1], i) + " AS text)"
			}
			s.calls = append(s.calls, "SELECT CAST("+v+" AS "+p[1]+")")
		}
		sigs = append(sigs, s)
	}
	sort.Slice(sigs, func(i, j int) bool { return sigs[i].key < sigs[j].key })
	for _, set := range []string{
		"SET statement_timeout = '5s'",
		"SET TimeZone = '" + sweepZone + "'",
		"SET DateStyle = 'SQL, DMY'",
		"SET IntervalStyle = 'postgres_verbose'",
	} {
		sameCode(t, run, runPG, set)
		for _, s := range sigs {
			if st := s.classify(t, run, runPG); st != "same" && st != "error" {
				t.Errorf("%s after %s: %s (-sweep-show logs the calls)", s.key, set, st)
			}
		}
	}
	t.Logf("%d casts checked", len(sigs))
}
