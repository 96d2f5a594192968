package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// sweepZone is a zone whose offset is not a whole hour and changes in
// summer, so that a timestamptz written or read in UTC where
// PostgreSQL uses the session's zone shows in its text.
const sweepZone = "America/St_Johns"

// TestFunctionSweepSettings calls again every signature of
// TestFunctionSweep over dates, times, timestamps and intervals, in a
// session whose TimeZone is sweepZone, then also with DateStyle SQL, DMY,
// then also with IntervalStyle postgres_verbose: each that the committed
// list says gives PostgreSQL's answers must still give them. The
// built-ins that read the session's zone are picked out by hand
// (expr.ZoneFuncOf, FuncDef.EvalZone, the binder's casts); a call that
// one of them misses answers in UTC, which in this zone differs.
func TestFunctionSweepSettings(t *testing.T) {
	run, runPG := styledRunners(t, 42)
	sigs := sweepSignatures(t, runPG)
	sameCode(t, run, runPG, "SET statement_timeout = '5s'")
	want := readSweep(t)
	for _, set := range []string{
		"SET TimeZone = '" + sweepZone + "'",
		"SET DateStyle = 'SQL, DMY'",
		"SET IntervalStyle = 'postgres_verbose'",
	} {
		sameCode(t, run, runPG, set)
		checked := 0
		for _, s := range sigs {
			if !s.zoned || want[s.key] != "same" {
				continue
			}
			if st := s.classify(t, run, runPG); st != "same" {
				t.Errorf("%s after %s: %s, but the same as PostgreSQL by default (-sweep-show logs the calls)", s.key, set, st)
			}
			checked++
		}
		t.Logf("%d signatures checked after %s", checked, set)
		if checked < 80 {
			t.Fatalf("only %d signatures checked", checked)
		}
	}
}

// styledRunners are scriptRunners whose engine side writes its rows in
// its session's styles and zone, as PostgreSQL's text output does.
func styledRunners(t *testing.T, stream uint64) (run, runPG func(string) ([]string, string)) {
	pg, ctx, _ := randomPG(t, stream)
	tw := newPGTwin(t, ctx, pg, engine.New())
	run = func(sql string) ([]string, string) {
		var rows []value.Row
		err := tw.sess.ExecScript(sql, func(res engine.Result) error {
			if res.HasRows {
				rows = res.Rows
			}
			return nil
		})
		if err != nil {
			return nil, pgerr.Code(err)
		}
		return rowTextsStyle(rows, tw.sess.TextStyle(), tw.sess.TimeZone()), ""
	}
	runPG = func(sql string) ([]string, string) {
		o := tw.runPG(sql)
		return o.rows, o.code
	}
	return run, runPG
}
