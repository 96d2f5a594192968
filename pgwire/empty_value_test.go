package pgwire_test

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestEmptyTextIsNotNull checks that an empty string is sent as an empty
// value, not NULL, also as the very first value a connection sends.
func TestEmptyTextIsNotNull(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
		var s *string
		if err := c.QueryRow(ctx(t), `SELECT ''::text`, mode).Scan(&s); err != nil {
			t.Fatal(err)
		}
		if s == nil || *s != "" {
			t.Errorf("mode %v: got %v, want an empty string", mode, s)
		}
	}
}
