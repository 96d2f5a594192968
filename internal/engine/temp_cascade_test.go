package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestTempViewDroppedByOtherSession checks that a temporary view that
// another session's DROP … CASCADE took away is forgotten by its own
// session: the name can be used again.
func TestTempViewDroppedByOtherSession(t *testing.T) {
	e := engine.New()
	a, b := e.NewSession(), e.NewSession()
	run := func(s *engine.Session, sql string) {
		t.Helper()
		if err := s.ExecScript(sql, func(engine.Result) error { return nil }); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	run(a, "CREATE TABLE base (id int)")
	run(a, "CREATE TEMP TABLE tmp (x int)")
	run(a, "CREATE VIEW tv AS SELECT id, x FROM base, tmp") // temporary, as it reads tmp
	run(b, "DROP TABLE base CASCADE")
	run(a, "CREATE VIEW tv AS SELECT x FROM tmp")
	run(a, "SELECT * FROM tv")
}
