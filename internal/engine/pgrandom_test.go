package engine_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/value"
)

// randomPG starts the PostgreSQL server a randomized comparison checks
// against, and returns a connection to it, a context that bounds the test
// and a generator on stream whose seed is logged. Without PostgreSQL the
// test is skipped, except under CI.
func randomPG(t *testing.T, stream uint64) (*pgx.Conn, context.Context, *rand.Rand) {
	t.Helper()
	if _, err := pgtest.FindBinDir(); err != nil && os.Getenv("CI") != "true" {
		t.Skip("PostgreSQL is not installed")
	}
	pg := pgtest.Start(t).Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	// A fixed seed by default, so that the suite is the same on every
	// run (each test's stream still draws its own statements);
	// DELTAVIEW_SEED=time draws a new seed to explore, a number runs a
	// logged seed again.
	seed := uint64(1)
	switch s := os.Getenv("DELTAVIEW_SEED"); s {
	case "":
	case "time":
		seed = uint64(time.Now().UnixNano())
	default:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("DELTAVIEW_SEED=%q: a number or \"time\"", s)
		}
		seed = n
	}
	t.Logf("seed %d", seed)
	return pg, ctx, rand.New(rand.NewPCG(seed, stream))
}

// setupBoth runs setup's statements (separated by ";\n") in the engine
// and in PostgreSQL, where a materialized view is created as a plain view
// that the comparisons query afresh; any error fails the test.
func setupBoth(t *testing.T, run, runPG func(string) ([]string, string), setup string) {
	t.Helper()
	for _, stmt := range strings.Split(setup, ";\n") {
		if _, code := run(stmt); code != "" {
			t.Fatalf("%s: %s", stmt, code)
		}
		if _, code := runPG(strings.Replace(stmt, "MATERIALIZED ", "", 1)); code != "" {
			t.Fatalf("PostgreSQL: %s: %s", stmt, code)
		}
	}
}

// applyBoth runs stmt in deltaview and in PostgreSQL, then checks that
// each of views holds the rows PostgreSQL computes for it.
func applyBoth(t *testing.T, e *engine.Engine, run, runPG func(string) ([]string, string), stmt string, views []string) {
	t.Helper()
	if _, code := run(stmt); code != "" {
		t.Fatalf("%s: %s", stmt, code)
	}
	if _, code := runPG(stmt); code != "" {
		t.Fatalf("PostgreSQL: %s: %s", stmt, code)
	}
	for _, v := range views {
		_, rows, err := e.ViewRows(v)
		if err != nil {
			t.Fatal(err)
		}
		want, code := runPG("SELECT * FROM " + v)
		if code != "" {
			t.Fatalf("PostgreSQL: %s", code)
		}
		if got := sorted(rowTexts(rows)); !slices.Equal(got, sorted(want)) {
			t.Fatalf("after %s: view %s holds\n%s\nPostgreSQL computes\n%s", stmt, v, show(got), show(sorted(want)))
		}
	}
}

// pgTwin is a session of a deltaview engine and a PostgreSQL connection
// fed the same statements, whose outcomes a randomized test compares.
type pgTwin struct {
	t    *testing.T
	ctx  context.Context
	pg   *pgx.Conn
	sess *engine.Session
	// tags makes both compare the command tags of statements that succeed.
	tags bool
}

// twinOutcome is what a script gives: the rows of its last result that has
// rows, as text (see rowTexts), its last command tag, or the SQLSTATE it
// fails with.
type twinOutcome struct {
	rows []string
	tag  string
	code string
}

// newPGTwin returns a twin of a new session of e and pg.
func newPGTwin(t *testing.T, ctx context.Context, pg *pgx.Conn, e *engine.Engine) *pgTwin {
	sess := e.NewSession()
	t.Cleanup(func() { sess.Close() })
	return &pgTwin{t: t, ctx: ctx, pg: pg, sess: sess}
}

// randomTwin is randomPG with a twin of a new engine's session and the
// PostgreSQL connection.
func randomTwin(t *testing.T, stream uint64) (*pgTwin, *rand.Rand) {
	t.Helper()
	pg, ctx, r := randomPG(t, stream)
	return newPGTwin(t, ctx, pg, engine.New()), r
}

// run runs the script sql in deltaview.
func (tw *pgTwin) run(sql string) twinOutcome {
	var rows []value.Row
	var tag string
	err := tw.sess.ExecScript(sql, func(res engine.Result) error {
		if res.HasRows {
			rows = res.Rows
		}
		tag = res.Tag
		return nil
	})
	if err != nil {
		return twinOutcome{code: pgerr.Code(err)}
	}
	return twinOutcome{rows: rowTexts(rows), tag: tag}
}

// runPG runs the script sql in PostgreSQL; an error that carries no
// SQLSTATE fails the test.
func (tw *pgTwin) runPG(sql string) twinOutcome {
	rs, err := tw.pg.PgConn().Exec(tw.ctx, sql).ReadAll()
	if err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) {
			tw.t.Fatalf("%s: PostgreSQL: %v", sql, err)
		}
		return twinOutcome{code: pe.Code}
	}
	if len(rs) == 0 {
		return twinOutcome{}
	}
	last := rs[len(rs)-1]
	return twinOutcome{rows: pgTexts(pgRows(last)), tag: last.CommandTag.String()}
}

// both runs sql in deltaview and in PostgreSQL, fails the test unless
// both fail with the same SQLSTATE or both give the same rows in the same
// order (and, with tags, the same command tag), and returns the SQLSTATE.
func (tw *pgTwin) both(sql string) string {
	tw.t.Helper()
	got, want := tw.run(sql), tw.runPG(sql)
	switch {
	case got.code != want.code:
		tw.t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", sql, got.code, want.code)
	case tw.tags && got.code == "" && got.tag != want.tag:
		tw.t.Fatalf("%s: deltaview %s, PostgreSQL %s", sql, got.tag, want.tag)
	case !slices.Equal(got.rows, want.rows):
		tw.t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", sql, show(got.rows), show(want.rows))
	}
	return got.code
}

// scriptRunners returns run and runPG, which run a script on a new
// session of e and on pg, and return the last result's rows as text, or
// the error's SQLSTATE.
func scriptRunners(t *testing.T, ctx context.Context, pg *pgx.Conn, e *engine.Engine) (run, runPG func(string) ([]string, string)) {
	tw := newPGTwin(t, ctx, pg, e)
	run = func(sql string) ([]string, string) {
		o := tw.run(sql)
		return o.rows, o.code
	}
	runPG = func(sql string) ([]string, string) {
		o := tw.runPG(sql)
		return o.rows, o.code
	}
	return run, runPG
}

// sameCode runs stmt with run and runPG (scriptRunners') and fails the
// test unless both succeed or both fail with one SQLSTATE, which it
// returns.
func sameCode(t *testing.T, run, runPG func(string) ([]string, string), stmt string) string {
	t.Helper()
	_, code := run(stmt)
	if _, pgCode := runPG(stmt); code != pgCode {
		t.Fatalf("%s: deltaview %q, PostgreSQL %q", stmt, code, pgCode)
	}
	return code
}
