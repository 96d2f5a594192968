package engine_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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
	t.Logf("seed %d", seed)
	return pg, ctx, rand.New(rand.NewPCG(seed, stream))
}
