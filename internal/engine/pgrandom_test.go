package engine_test

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
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
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("DELTAVIEW_SEED"), 10, 64); err == nil {
		seed = s // to run a logged seed again
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
